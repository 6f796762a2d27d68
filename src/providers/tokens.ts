// A real BPE tokenizer (o200k_base, shipped inside js-tiktoken: nothing is downloaded) so token
// counts of the embedded composer are meaningful for usage and cost.
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

export function countTokens(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text).length;
}

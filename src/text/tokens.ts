// How many LLM tokens a text is: a real BPE tokenizer (o200k_base, shipped inside js-tiktoken: nothing
// is downloaded) so token counts of the embedded composer are meaningful for usage and cost. Used by
// the providers, the credit hold and the composer's threads.
import { Tiktoken } from 'js-tiktoken/lite';
import o200kBase from 'js-tiktoken/ranks/o200k_base';

let encoder: Tiktoken | undefined;

export function countTokens(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text).length;
}

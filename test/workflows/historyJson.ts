// Workflow histories to and from the JSON format of Temporal's tools (the UI's and the CLI's export),
// as `historyToJSON`/`historyFromJSON` of @temporalio/common/lib/proto-utils do.
//
// Why not those two directly: in this dependency tree @grpc/proto-loader's protobufjs 7 sits at the
// top of node_modules, so @temporalio/common and @temporalio/proto each get their own copy of
// protobufjs 8. proto-utils hands @temporalio/proto's History type to @temporalio/common's copy of
// protobufjs/ext/protojson, whose `instanceof Type` check fails: both throw "type must be a Type"
// (and so does Worker.runReplayHistories given JSON). The same conversion is done here with the
// protojson of the protobufjs copy @temporalio/proto itself loads, so type and converter match.
import { createRequire } from 'node:module';
import type { History } from '@temporalio/common/lib/proto-utils.js';

type Protojson = {
  toJson(type: unknown, message: unknown): unknown;
  fromJson(type: unknown, json: unknown, options?: { ignoreUnknownFields?: boolean }): unknown;
};

const require = createRequire(import.meta.url);
const fromProtoPackage = createRequire(require.resolve('@temporalio/proto'));
const proto = fromProtoPackage('@temporalio/proto') as typeof import('@temporalio/proto');
const { patchProtobufRoot } = fromProtoPackage('@temporalio/proto/lib/patch-protobuf-root') as {
  patchProtobufRoot<T>(root: T): T & { lookupType(name: string): unknown };
};
const { toJson, fromJson } = fromProtoPackage('protobufjs/ext/protojson') as Protojson;
const historyType = patchProtobufRoot(proto).lookupType('temporal.api.history.v1.History');

/**
 * A history (e.g. from `handle.fetchHistory()`) as the JSON of Temporal's history exports, written one
 * event per line so a re-recording diffs event by event.
 */
export function historyToJson(history: History): string {
  const json = toJson(historyType, proto.temporal.api.history.v1.History.fromObject(history)) as { events?: unknown[] };
  return `{"events": [\n${(json.events ?? []).map((e) => JSON.stringify(e)).join(',\n')}\n]}\n`;
}

/** The history of a JSON export written by historyToJson (unknown fields of newer servers are ignored). */
export function historyFromJson(json: unknown): History {
  return fromJson(historyType, json, { ignoreUnknownFields: true }) as History;
}

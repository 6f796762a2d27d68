declare module 'async-exit-hook' {
  const exitHook: { hookedEvents(): string[]; unhookEvent(event: string): void };
  export default exitHook;
}

// k6 provides console in every stage; @types/k6 leaves it to the DOM or Node typings, which do
// not describe k6, so the few methods the scripts may use are declared here.
declare var console: {
  log(...data: unknown[]): void;
  info(...data: unknown[]): void;
  warn(...data: unknown[]): void;
  error(...data: unknown[]): void;
  debug(...data: unknown[]): void;
};

// k6 provides require() in the init context, with a path known only at run time (LOAD_MODULE);
// @types/k6 leaves it to the Node typings, which do not describe k6.
declare function require(path: string): unknown;

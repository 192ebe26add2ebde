export * from "./collections";
export * from "./errors";
export * from "./pagination";
export * from "./parse";
export * from "./transport";

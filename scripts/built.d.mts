// Types of built.mjs, for the TypeScript that imports it (the bench).
export declare const root: string;
export declare function ensureWebBuilt(): void;
export declare function ensureServerBuilt(): void;
export declare const bundleArgs: (entry: "main" | "worker") => string[];

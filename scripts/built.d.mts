// Types of built.mjs, for the TypeScript that imports it (the bench).
export declare const root: string;
export declare function ensureWebBuilt(n?: number, total?: number): Promise<void>;
export declare function ensureServerBuilt(n?: number, total?: number): Promise<void>;
export declare const bundleArgs: (entry: "main" | "worker") => string[];

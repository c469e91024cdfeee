export declare const HOST_GLOBAL: string;
export declare const shared: readonly string[];

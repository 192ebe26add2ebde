export function packPackage(destination: string, fileName?: string): Promise<string>;

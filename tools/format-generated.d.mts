export function formatGenerated(file: string, text: string): string;

export function releaseNotes(changelog: string, version: string): string;

/** The few `vscode` API pieces config.ts touches at import and read time, for unit tests in Node. */
export const settings: Record<string, unknown> = {};

export const workspace = {
    getConfiguration: (_section: string) => ({ get: <T>(key: string): T | undefined => settings[key] as T | undefined }),
};

export const extensions = { getExtension: (_id: string) => undefined };

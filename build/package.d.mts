// Types of build/package.mjs for the TypeScript that uses it (tests, tools).
export interface PackageFile { name: string; data: Buffer }
export interface PackageMeta { product?: string; board: string; chip: string; psram: string; version: string; wait?: number }
export interface BoardFacts { id: string; soc: string; psram: string; updateImage: string }

export const MAGIC: string;
export const PRODUCT: string;
export const BUNDLE: string;
export const MANIFEST: string;
export const SLOTS: string[];
export const SLOT_PREFIX_LENGTH: number;
export const PACKAGE_MAX: number;
export const BOOT_STAGE_SOURCE: string;
export const BOOT_STAGE: string;

export function manifestText(names: string[]): string;
export function boardFacts(id: string): Promise<BoardFacts>;
export function slotFiles(bundle: Buffer | string, storage?: string): PackageFile[];
export function encodePackage(meta: PackageMeta, files: PackageFile[]): Buffer;
export function decodePackage(buf: Buffer): { header: { [field: string]: string }; files: PackageFile[]; digest: string; problems: string[] };
export function writeManifest(storage?: string): void;
export function writePackages(boardIds: string[], version: string): Promise<string[]>;
export function bootStageText(): string;
export function writeBootStage(): string;

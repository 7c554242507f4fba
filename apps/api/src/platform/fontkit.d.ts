// fontkit ships no type declarations; pdf-fonts.ts asks one question of a font file.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}

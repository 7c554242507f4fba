/** The part of @midlandsbank/node-nacha (a NACHA parser from npm, no types of its own) the tests use. */
declare module '@midlandsbank/node-nacha' {
  export interface ParsedEntry {
    transactionCode: string;
    receivingDFIIdentification: number;
    checkDigit: number;
    dfiAccount: string;
    amount: number;
    identificationNumber: string;
    receivingCompanyName: string;
    traceNumber: number;
    addenda?: Record<string, string | number>;
  }
  export interface ParsedBatch {
    serviceClassCode: number;
    companyName: string;
    companyId: string;
    entryClassCode: string;
    description: string;
    effectiveDate: string;
    originatingDFIIdentification: string;
    num: number;
    entries: ParsedEntry[];
    footer: { serviceClassCode: number; entryAndAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number; num: number };
  }
  export interface ParsedFile {
    file: {
      destination: string;
      origin: string;
      idModifier: string;
      destinationName: string;
      originName: string;
      footer: { batchCount: number; blockCount: number; entryAndAddendaCount: number; entryHash: number; totalDebit: number; totalCredit: number };
    };
    batches: ParsedBatch[];
  }
  const nacha: { from(source: string): { data: ParsedFile } };
  export default nacha;
}

import { describe, expect, it } from 'vitest';
import { amount, csvCell, toCsv } from './csv';

describe('CSV cells', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Dana Whitfield')).toBe('Dana Whitfield');
    expect(csvCell(1234)).toBe('1234');
    expect(csvCell(-5)).toBe('-5');
    expect(csvCell(null)).toBe('');
  });

  it('quotes a cell holding a comma, a quote or a line break, doubling its quotes', () => {
    expect(csvCell('12 Main St, Springfield')).toBe('"12 Main St, Springfield"');
    expect(csvCell('the "big" leak')).toBe('"the ""big"" leak"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
  });

  it('turns a text cell a spreadsheet would run as a formula into text with a leading apostrophe', () => {
    expect(csvCell('=HYPERLINK("http://evil.example","click")')).toBe('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    expect(csvCell('+1 555 0100')).toBe("'+1 555 0100");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1:A2)')).toBe("'@SUM(A1:A2)");
    expect(csvCell('\tcmd')).toBe('"\'\tcmd"');
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('neutralises a formula after any separator a spreadsheet might split on, and quotes the cell', () => {
    expect(csvCell('a;=1+1')).toBe('"a;\'=1+1"');
    expect(csvCell('x,=1+1')).toBe('"x,\'=1+1"');
    expect(csvCell('x\t=cmd')).toBe('"x\t\'=cmd"');
    expect(csvCell('x|=1')).toBe('"x|\'=1"');
    expect(csvCell('x;  @SUM(A1)')).toBe('"x;  \'@SUM(A1)"');
    expect(csvCell('x,\t=1')).toBe('"x,\'\t\'=1"');
    expect(csvCell('line one\n+1 555 0100')).toBe('"line one\n\'+1 555 0100"');
  });

  it('leaves a separator followed by ordinary text alone', () => {
    expect(csvCell('a;b')).toBe('"a;b"');
    expect(csvCell('2 - 3')).toBe('2 - 3');
  });

  it('writes a header and rows with CRLF line ends, and cents as amounts', () => {
    expect(toCsv(['Name', 'Total'], [['Ann', amount(1050)], ['=1+1', amount(5)]])).toBe("Name,Total\r\nAnn,10.50\r\n'=1+1,0.05\r\n");
  });
});

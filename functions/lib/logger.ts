/**
 * Structured one-line JSON logs (CloudWatch parses them). Callers pass ids and codes, never
 * request bodies, cookies or personal data.
 */
type Fields = Record<string, string | number | boolean | undefined>;

function write(level: 'info' | 'warn' | 'error', message: string, fields: Fields = {}): void {
  const line = JSON.stringify({ level, message, time: new Date().toISOString(), ...fields });
  if (level === 'error') console.error(line);
  else console.log(line);
}

export const logger = {
  info: (message: string, fields?: Fields) => write('info', message, fields),
  warn: (message: string, fields?: Fields) => write('warn', message, fields),
  error: (message: string, fields?: Fields) => write('error', message, fields),
};

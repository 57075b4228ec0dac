/**
 * The table the stack runs on after a point-in-time restore: DynamoDB restores into a new table,
 * so the operator hands its name (context "tableName") and its stream (context "tableStreamArn")
 * to the stack, which then points every function, the catalogue seed and the stream consumers at
 * it instead of creating one (README runbook: restore the table to a point in time).
 */
export interface AdoptedTable {
  tableName: string;
  tableStreamArn: string;
}

/** DynamoDB's rule for table names. */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
/** arn:<partition>:dynamodb:<region>:<account>:table/<name>/stream/<label> */
const STREAM_ARN = /^arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\d{12}:table\/([A-Za-z0-9_.-]{3,255})\/stream\/\S+$/;

const enableStream = (tableName: string) =>
  `aws dynamodb update-table --table-name ${tableName} --stream-specification StreamEnabled=true,StreamViewType=NEW_IMAGE ` +
  '--query TableDescription.LatestStreamArn --output text';

/**
 * The table named by context "tableName" and "tableStreamArn", or undefined when neither is set
 * (the stack creates and owns its table). Anything half given or malformed fails the synth with
 * what to run: a restored table has no stream until one is enabled, and without the stream the
 * push consumer would silently stop.
 */
export function adoptedTableOf(context: (key: string) => unknown): AdoptedTable | undefined {
  const given = (key: string) => {
    const value = context(key);
    return value === undefined || value === null || value === '' ? undefined : String(value).trim();
  };
  const tableName = given('tableName');
  const tableStreamArn = given('tableStreamArn');
  if (tableName === undefined && tableStreamArn === undefined) return undefined;
  if (tableName === undefined) {
    throw new Error(
      'context "tableStreamArn" is given without "tableName": name the table the stream belongs to, ' +
        '-c tableName=<table> -c tableStreamArn=<its stream ARN>.',
    );
  }
  if (!TABLE_NAME.test(tableName)) {
    throw new Error(`context "tableName" must be a DynamoDB table name (3 to 255 of A-Z a-z 0-9 _ . -), got ${JSON.stringify(tableName)}`);
  }
  if (tableStreamArn === undefined) {
    throw new Error(
      `context "tableName" (${tableName}) needs "tableStreamArn" too: the stream consumers read the table's stream, ` +
        'and a restored table has none until you enable it. Run\n' +
        `  ${enableStream(tableName)}\n` +
        `and deploy with -c tableName=${tableName} -c tableStreamArn=<the ARN it prints> (README runbook: restore).`,
    );
  }
  const match = STREAM_ARN.exec(tableStreamArn);
  if (!match) {
    throw new Error(
      `context "tableStreamArn" must be a DynamoDB stream ARN (arn:aws:dynamodb:<region>:<account>:table/${tableName}/stream/<label>), ` +
        `got ${JSON.stringify(tableStreamArn)}`,
    );
  }
  if (match[1] !== tableName) {
    throw new Error(`context "tableStreamArn" is the stream of table ${match[1]}, not of "tableName" ${tableName}: give that table's own stream.`);
  }
  return { tableName, tableStreamArn };
}

/** The start every bench person's name shares (the second word goes on with letters that encode the index). */
export const BENCH_PERSON_PREFIX = 'Jane Doe';

/** A distinct person name per index that the offline model reads as a name (two capitalised words, letters only). */
const benchPersonName = (index: number) =>
  `${BENCH_PERSON_PREFIX}${index.toString(26).replace(/./g, (digit) => String.fromCharCode(97 + parseInt(digit, 26)))}`;

/** An instruction the demo agent's offline model answers with exactly one contacts__create call. */
export const addContactInstruction = (index: number) => `Please add ${benchPersonName(index)} (p${index}@example.com) to my contacts.`;

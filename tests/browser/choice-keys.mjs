// The README's full bank example cut to its three choice questions (single, multiple, true/false),
// unshuffled, and the keys that answer them: the spaced-review tests play it by keyboard.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { waitForState } from './harness.mjs';

const readme = fs.readFileSync('quizzes/README.md', 'utf8');
const full = JSON.parse(readme.split('<!-- readme-example: full bank -->')[1].split('```json')[1].split('```')[0]);
export const questions = ['single_choice', 'multiple_choice', 'true_false'].map((type) => full.questions.find((q) => q.type === type));
assert.ok(questions.every(Boolean), 'the README example has the three choice types');

// The bank with just those, in that order, choices unshuffled; `fields` replace its own.
export const choiceBank = (fields = {}) => ({ ...full, settings: { ...full.settings, shuffleChoices: false, shuffleQuestions: false },
                                              questions, ...fields });

// The digits that answer a question right, or (wrong) the first wrong choice's.
const digits = (q, right) => {
  if (q.type === 'true_false') return [right === q.answer ? '1' : '2'];
  const indexes = q.choices.map((c, i) => [c, i]).filter(([c]) => (right ? c.correct : !c.correct)).map(([, i]) => String(i + 1));
  return right ? indexes : indexes.slice(0, 1);
};

// Answers question `q` on screen by keyboard, right or wrong, checks that the page says so, goes on.
export async function answerByKeys(page, q, right) {
  for (const digit of digits(q, right)) {
    const before = (await waitForState(page, (s) => s.question)).question.choices.filter((c) => c.selected).length;
    await page.keyboard.press(digit);
    await waitForState(page, (s, n) => s.question.choices.filter((c) => c.selected).length !== n, before);
  }
  await page.keyboard.press('Enter');
  const state = await waitForState(page, (s) => s.question && s.question.feedback);
  assert.equal(state.question.feedback.correct, right, `${q.id}: told ${right ? 'right' : 'wrong'}`);
  await page.keyboard.press('Enter');
}

// A cloze question's prompt as every rendering shows it: each {{id}} replaced by a numbered gap,
// numbered in the order the content language's prompt has them (a translation may put its
// blanks in another order), so the canvas, the mirror, the results and host events agree.
#pragma once

#include "engine/bank.h"

#include <functional>
#include <string>
#include <vector>

namespace imquiz::app {

// The blanks in the order the prompt in `language` shows them (numbered from 1 in that order).
std::vector<const Blank*> blanks_in_prompt_order(const Bank& bank, const Question& question, const std::string& language);

// The prompt in `language` with each blank replaced by `gap(blank, number)`. In a Markdown bank
// the gap's words are escaped, so a learner's answer shown in the gap is never read as Markdown.
LocalizedText cloze_prompt(const Bank& bank, const Question& question, const std::string& language,
                           const std::function<std::string(const Blank&, int)>& gap);

// The gap as shown before anything is in it, and with what fills it: "[1 ____]", "[1: all-reduce]".
std::string empty_gap(int number);
std::string filled_gap(int number, const std::string& words);

}  // namespace imquiz::app

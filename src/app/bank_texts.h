// A bank's texts as every screen shows them, in one place: in the content language, with bidi
// overrides and invisible format characters neutralized (engine/unicode.h), and, for Markdown
// banks, read into blocks and runs.
#pragma once

#include "engine/bank.h"
#include "engine/rich_text.h"

#include <optional>
#include <string>
#include <string_view>

namespace imquiz::app {

// A Markdown bank's text as blocks and runs; none in a plain bank (its texts are their words).
// Read again at each screen build, not kept: reading is quick (a results screen of 20,000
// questions reads 40,000 texts in ... ms, docs/benchmark.md), and a cache would cost every plain
// bank's learner its code in the download (the budget of README, Markdown).
using RichTextRef = std::optional<RichText>;

// The words alone: the text itself in a plain bank, Markdown's words without their marks in a
// Markdown bank (titles, accessible names, announcements, host events).
std::string text_words(const Bank& bank, const LocalizedText& text, std::string_view language);
RichTextRef text_rich(const Bank& bank, const LocalizedText& text, std::string_view language);

// Colours the code blocks of `text` in the languages engine/code_colours.h names, with the
// platform's highlighter (asked for on the first such block: on the web it is a script of its
// own). Returns true when one of them stays plain for now because the highlighter is on its way;
// without one (it failed, or natively) they stay plain for good.
bool colour_code(RichText& text);
// A screen built while the highlighter was on its way is out of date once it answered (either
// way: a failure is logged, and then nothing waits any more).
bool code_colours_arrived(bool screen_waits);

}  // namespace imquiz::app

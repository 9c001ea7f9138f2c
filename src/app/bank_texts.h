// A bank's texts as every screen shows them, in one place: in the content language, with bidi
// overrides and invisible format characters neutralized (engine/unicode.h), and, for Markdown
// banks, parsed once and kept (the screen is rebuilt on every change; the results of a
// 20,000-question bank show 40,000 texts).
#pragma once

#include "engine/bank.h"
#include "engine/rich_text.h"

#include <memory>
#include <string>
#include <string_view>

namespace imquiz::app {

using RichTextRef = std::shared_ptr<const RichText>;

// The words alone: the text itself in a plain bank, Markdown's words without their marks in a
// Markdown bank (titles, accessible names, announcements, host events).
std::string text_words(const Bank& bank, const LocalizedText& text, std::string_view language);
// The parsed text of a Markdown bank; null for a plain bank (its texts are their words).
RichTextRef text_rich(const Bank& bank, const LocalizedText& text, std::string_view language);

}  // namespace imquiz::app

// Syntax colours for code blocks: which fence languages are coloured, and the check every
// highlighter's answer passes before it reaches a Block. The colouring itself is Prism's (on the
// web a script of its own, platform.h highlight_code); the engine only reads its answer, and a
// broken answer (out of range, overlapping, cutting a character, unknown kind, not numbers)
// leaves the code plain rather than mis-sliced.
#pragma once

#include "engine/rich_text.h"

#include <string_view>
#include <vector>

namespace imquiz {

// The highlighter's name of a fence's language ("python" for "py", "cpp" for "c++"), matched
// without regard to case; "" when it is not one that is coloured (the code is then plain).
std::string_view coloured_language(std::string_view fence_language);

// The highlighter's answer for `code`: ASCII decimal numbers separated by commas, three per span
// (begin byte, length in bytes, CodeKind), spans in order and apart. Empty when the answer is
// empty or is not exactly that for this code.
std::vector<CodeSpan> read_code_spans(std::string_view code, std::string_view answer);

}  // namespace imquiz

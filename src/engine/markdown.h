// Markdown bank texts ("textFormat": "markdown"): CommonMark with GitHub tables, strikethrough
// and $math$ / $$math$$, parsed by md4c; raw HTML stays text. md4c's callbacks travel as a small
// byte stream of events, so that the parser can live apart from the app: natively it is linked
// into the engine (markdown/md4c_events.cpp); on the web it is a separate module fetched only
// when a bank asks for Markdown (platform/web), which keeps md4c's 21 KB out of every plain
// bank's download. Both ends share the builder below.
#pragma once

#include "engine/rich_text.h"

#include <string>
#include <string_view>
#include <vector>

namespace imquiz {

// md4c's events for `markdown`, encoded (markdown/md4c_events.h says how). Defined by
// markdown/md4c_events.cpp natively and by platform/web on the web.
std::string markdown_events(std::string_view markdown);

// The text those events describe. Any byte string is safe here: a truncated or garbled stream
// ends the text early, never reads past its end.
RichText rich_text_from_events(std::string_view events);

inline RichText parse_markdown(std::string_view markdown) { return rich_text_from_events(markdown_events(markdown)); }

// What an author must fix in a parsed text: an image without alt text, an image that is not a
// PNG, JPEG, WebP or SVG file beside the bank, a link that is not http(s) or mailto. One
// sentence each, in the order they occur.
std::vector<std::string> markdown_problems(const RichText& text);

}  // namespace imquiz

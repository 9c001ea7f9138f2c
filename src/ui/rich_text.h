// A Markdown bank's text on the canvas (engine/rich_text.h): paragraphs of runs wrapped across
// faces, lists, quotes, headings, code blocks and tables that scroll sideways instead of
// overflowing, links that open in a new tab. A plain bank's text never comes here.
#pragma once

#include "ui/widgets.h"

#include "engine/rich_text.h"

namespace imquiz::ui {

enum class TextSize { Body, Heading, Small };

// Draws `text` at the cursor, wrapped to the available width, in `color`; `id` keeps its
// links and scroll areas apart from another text's. Returns OpenLink when the learner
// activated a link (mouse, touch, or Enter on it).
app::Action rich_text(const UiContext& ui, const char* id, const RichText& text, TextSize size, uint32_t color);

// For widgets that size themselves before they draw (answer cards): the height `text` takes at
// `width`, and the text drawn at `origin`, the cursor left where it was. Links there are not
// items of their own (the card is); the mirror has them as real links.
float rich_text_height(const UiContext& ui, const RichText& text, TextSize size, float width);
void rich_text_at(const UiContext& ui, const char* id, const RichText& text, TextSize size, uint32_t color, ImVec2 origin,
                  float width);

}  // namespace imquiz::ui

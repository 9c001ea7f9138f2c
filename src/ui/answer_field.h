// The frame of a typed answer: the question's (numeric, short text) or a cloze blank's. On the web
// the typing happens in a real <input> that web/text-field.js lays exactly over it (the item
// `item_id`, with the font to use), so on-screen keyboards, IMEs, autocorrect and screen readers
// all work as in any web form. Where the host has no such field (UiContext::draw_text_fields: the
// desktop), ImGui edits the text in the frame.
#pragma once

#include "app/screen_model.h"
#include "ui/widgets.h"

#include <optional>
#include <string>

namespace imquiz::ui {

struct AnswerFrameStyle {
    uint32_t border = 0;         // accent, or right / wrong once checked
    bool checked = false;        // read only, the frame filled as answered
    bool take_focus = false;     // the keyboard goes here (a new question, on the desktop)
    float width = 0;             // 0: the width available
};

// Draws the frame (and, on the desktop, edits in it); returns the new text when it was edited.
std::optional<std::string> answer_frame(const UiContext& ui, const app::AnswerFieldModel& field, const std::string& item_id,
                                        const AnswerFrameStyle& style);

}  // namespace imquiz::ui

// An exam's question (QuestionModel::exam), part of the question view: the palette of questions at
// the top; Previous, Flag, Next and Submit at the bottom, and the confirmation while it is asked.
#pragma once

#include "ui/views.h"
#include "ui/widgets.h"

namespace imquiz::ui {

// A button per question: its number, filled once answered, a corner mark when flagged, a thick
// border on the one shown. Returns the move asked for, if any this frame.
app::Action exam_palette(const UiContext& ui, const app::ExamModel& exam);

// Previous and Flag side by side, the primary (Next, or Submit on the last question), Submit, and
// in their place the confirmation while it is asked.
app::Action exam_controls(QuestionView& view, const UiContext& ui, const app::QuestionModel& q);

}  // namespace imquiz::ui

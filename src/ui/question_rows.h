// The rows of a matching, ordering or cloze question (QuestionModel::rows), part of the question view.
#pragma once

#include "ui/views.h"
#include "ui/widgets.h"

namespace imquiz::ui {

// Draws the rows; returns the learner's pairing, move or blank's answer, if any this frame.
app::Action question_rows(QuestionView& view, const UiContext& ui, const app::QuestionModel& q);

}  // namespace imquiz::ui

// The learner's progress as pictures (issue: spaced review and progress): the results screen's
// chart of past scores and its bars per tag, the catalog card's indicator. Drawn from the screen
// model's numbers with ImGui's draw list, so they are crisp at any pixel ratio and take the
// palette's colours; the mirror shows the same numbers as tables (ScoreChartModel::table).
#pragma once

#include "ui/widgets.h"

namespace imquiz::ui {

// One bar per attempt (the current one in full colour, the others lighter), green when passed and
// red when not, against a dashed line at the pass mark; the score above each bar where it fits,
// the attempt's number below.
void score_chart(const UiContext& ui, const app::ScoreChartModel& chart);

// Per tag: its name and counts, and a bar of its questions: right at least once, seen, not seen.
void mastery_bars(const UiContext& ui, const app::MasteryModel& mastery);

// A card's thin bar of the same three parts, with its words ("Right at least once: 5 of 8").
void progress_meter(const UiContext& ui, const app::CardProgressModel& progress);

}  // namespace imquiz::ui

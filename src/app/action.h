// Action: the one way anything changes the app's state. Views return one, the page sends one
// (the accessibility mirror, the text field, tests: page_protocol.h spells them as JSON), and
// apply() in app.h carries it out. Buttons of the screen model carry the action they stand for.
#pragma once

#include "app/preferences.h"

#include <string>

namespace imquiz::app {

struct Action {
    enum class Kind {
        None,
        OpenQuiz,          // bank: continue the attempt in progress, or start one
        StartOver,         // bank: drop the attempt in progress, start a new one
        SelectChoice,      // choice_id: pick (single) or toggle (multiple) on the current question
        SetTypedAnswer,    // text: numeric or short-text input
        MatchItem,         // choice_id: a matching item; text: the answer it goes with ("" none)
        MoveItem,          // choice_id: an ordering item; number: its new place (0-based)
        FillBlank,         // choice_id: a cloze blank; text: what is typed in it, or its choice's id ("" empties it)
        Check,             // the current selection / typed answer
        ShowHint,          // the current question's next hint
        GoToQuestion,      // exam: number: the question's index in the attempt (0-based)
        PreviousQuestion,  // exam
        ToggleFlag,        // exam: the current question's flag for review
        Submit,            // exam: ask to submit (a confirmation names what is unanswered)
        ConfirmSubmit,
        CancelSubmit,
        Next,              // next question, or results after the last
        Retry,             // a new attempt at the whole bank
        ReviewMistakes,    // a new attempt at the missed questions only
        ReviewDue,         // bank: a round of its questions due for review (engine/schedule.h), most forgotten first
        ReviewAll,         // the catalog's round of the most urgent due questions of every quiz
        ReviewNextQuiz,    // that round's next quiz, from the results of the one before
        BackToCatalog,
        OpenSettings,
        CloseSettings,
        SetLanguage,       // language
        SetTheme,          // theme
        SetTextScale,      // number
        RetryLoad,         // bank: fetch again after a failure
        ExportProgress,
        ImportProgress,
        DismissNotice,
        DeleteProgress,    // bank: ask to delete that quiz's progress (a confirmation follows)
        DeleteAllProgress, // ask to delete every quiz's progress
        ConfirmDelete,     // delete what was asked for
        CancelDelete,
        OpenLink,          // text: a Markdown text's link, opened in a new tab (http, https, mailto)
        CopyText,          // text: to the clipboard (a code block's Copy)
        OpenPicture,       // text: an image's source, shown full size over the screen
        ClosePicture,
    };
    Kind kind = Kind::None;
    int bank = -1;
    std::string choice_id;
    std::string text;
    Language language = Language::English;
    ThemeChoice theme = ThemeChoice::System;
    float number = 0;

    static Action of(Kind kind) {
        Action action;
        action.kind = kind;
        return action;
    }
};

}  // namespace imquiz::app

// Interface strings: one table per language (strings.cpp), looked up by id. Bank content has its
// own translations inside the bank; these are only the app's own words.
#pragma once

#include <string>
#include <string_view>

namespace imquiz::app {

enum class Language { English, Russian, Indonesian, Count };

// "en", "ru", "id": the codes banks use too.
const char* language_code(Language language);
// Its own name, as shown in the language picker ("Русский").
const char* language_native_name(Language language);
// Best match for a code such as "ru-RU" or "id"; false when none of ours fits.
bool language_from_code(std::string_view code, Language& out);

enum class Str {
    AppName,
    Loading,
    LoadingQuiz,
    Catalog,
    CatalogEmpty,
    QuestionsCount,       // "%d questions"
    BestScore,            // "Best: %d%%"
    NotTakenYet,
    InProgress,           // "In progress: %d of %d answered"
    AttemptsLeft,         // "Attempts left: %d of %d" (an exam's)
    NoAttemptsLeft,
    DueForReview,         // "Due for review: %d"
    ReviewDue,            // "Review %d due": a round of them
    AttemptOf,            // "Attempt %d of %d", with no-break spaces: one piece where a line wraps
    NotANumber,
    DevelopmentBank,      // "A bank under development, from %s. ..."
    DeleteProgress,
    DeleteAllProgress,
    ConfirmDeleteQuiz,    // "Delete your progress in “%s”? ..."
    ConfirmDeleteAll,
    Delete,
    Cancel,
    ProgressDeleted,
    ShowMore,
    CopyCode,             // a code block's button
    ClosePicture,         // the full-size view of an image
    PictureNotShown,      // beside an image's alt text when its file cannot be shown
    Start,
    Continue,
    StartOver,
    Settings,
    Back,
    Check,
    Next,
    SeeResults,
    Correct,
    Incorrect,
    PartlyCorrect,
    YourAnswer,
    CorrectAnswer,
    Explanation,
    SelectOne,
    SelectAll,
    TrueLabel,
    FalseLabel,
    TypeNumber,
    TypeAnswer,
    QuestionOf,           // "Question %d of %d"
    Results,
    Score,                // "%s of %s points"
    Passed,
    NotPassed,
    PassMark,             // "Pass mark: %d%%"
    TimeTaken,
    Retry,
    ReviewMistakes,
    BackToCatalog,
    PastAttempts,
    ScoresHeading,        // results: the chart of past scores
    ColumnAttempt,        // the chart's and the bars' numbers as tables (the mirror's): column heads
    ColumnDate,
    ColumnScore,
    ColumnOutcome,
    MasteryHeading,       // results: the bars per tag
    ColumnTopic,
    ColumnQuestions,
    ColumnSeen,
    ColumnRight,
    ColumnDue,
    AllQuestions,         // the one bar of a bank without tags
    OtherQuestions,       // the bar of the questions without a tag, in a bank with tags
    RightOfTotal,         // a card's indicator: "Right at least once: %d of %d"
    NextReview,           // a card with nothing due: "Next review: %s" (a date)
    ReviewRound,          // the results of a review round (Review mistakes, Review N due), and its past line
    ReviewNotCounted,     // in place of a review round's verdict
    ReviewHeading,        // the catalog's panel of review across quizzes
    DueAcross,            // its count: "Due for review in all quizzes: %d"
    ReviewAll,            // its button: "Review %d from all quizzes"
    NothingDue,           // its text when nothing is due (then NextReview, if anything is scheduled)
    ReviewLegOf,          // results of one quiz of that round: "Review round: quiz %d of %d"
    ContinueReview,       // their button to the next quiz: "Next in this review: %s" (its title)
    NoAnswer,
    Theme,
    ThemeLight,
    ThemeDark,
    ThemeSystem,
    TextSize,
    Language,
    Progress,
    ExportProgress,
    ImportProgress,
    ImportSummary,        // "Imported: %d quizzes, %d attempts added"
    ImportFailed,
    StorageUnavailable,
    StorageWriteFailed,
    Dismiss,
    CouldNotLoad,
    InvalidBank,
    RetryLoad,
    ShortcutsHint,
    Done,
    QuizNotFound,
    NewerVersionRecord,
    ReloadProblems,
    MatchInstruction,     // matching: what to do
    OrderInstruction,     // ordering: what to do
    ChooseAnswer,         // matching: an item's empty pick
    MoveUp,
    MoveDown,
    PlaceOf,              // ordering: "Place %d of %d"
    MovedTo,              // ordering, announced: "now at place %d of %d" (after the item's text)
    PairedWith,           // matching, announced: "paired with" (between the item and the answer)
    Unpaired,             // matching: an item left without an answer
    RightAnswerIs,        // matching, once checked: "Right answer:"
    RightPlaceIs,         // ordering, once checked: "Right place: %d"
    MatchShortcutsHint,
    OrderShortcutsHint,
    ClozeInstruction,     // cloze: what to do
    BlankOf,              // cloze: "Blank %d of %d" (a row's accessible name)
    BlankNumber,          // cloze: "Blank %d" (a row's heading)
    ClozeShortcutsHint,
    HintOf,               // "Hint %d of %d"
    ShowHint,             // the button
    HintCost,             // "costs %d%% of this question's points" (after ShowHint, in its accessible name)
    TryOf,                // "Try %d of %d"
    NotRightYet,          // a try that was not right, with tries left
    TriesLeft,            // "Tries left: %d. Change your answer and check again."
    HintsAndTries,        // once checked: "Hints used: %d · Tries: %d"
    PointsOfOne,          // "Points: %s of 1"
    ExamQuestions,        // exam: the palette's heading
    ExamAnswered,         // "Answered: %d of %d"
    PaletteAnswered,      // in a palette button's name: "Question 3: answered"
    PaletteNotAnswered,
    PaletteFlagged,
    PaletteCurrent,       // "shown now"
    FlagQuestion,
    UnflagQuestion,
    PreviousQuestion,
    SubmitAnswers,
    ConfirmSubmit,        // "Submit your answers? ..."
    UnansweredList,       // "Not answered: %s."
    AllAnswered,
    KeepAnswering,
    SubmitNow,
    ExamShortcutsHint,
    ScoreOnly,            // results of an exam that shows the score only
    TimeLeft,             // "Time left: %s" (the countdown)
    MinutesLeftWarning,   // "Less than %d minutes left." (announced)
    MinuteLeftWarning,    // "Less than a minute left." (announced)
    TimeUp,               // the notice after an exam's time ran out
    Count
};

const char* tr(Language language, Str id);

}  // namespace imquiz::app

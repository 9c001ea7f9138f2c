// The app's model: what is loaded, what the learner is doing, what they chose in Settings.
// Nothing draws from it directly: screen_model.h turns it into what each screen shows, and
// apply() (app.h) is the only place that changes it, for actions from the canvas and the page
// alike.
#pragma once

#include "app/action.h"
#include "app/math.h"
#include "app/preferences.h"

#include "engine/bank.h"
#include "engine/bank_loader.h"
#include "engine/diagnostics.h"
#include "engine/draft.h"
#include "engine/progress.h"
#include "engine/review_plan.h"
#include "engine/session.h"
#include "engine/storage.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace imquiz::app {

enum class Screen { Loading, Catalog, Question, Results, Settings };

// One bank of the catalog, from fetch to play.
struct BankSlot {
    enum class State { Loading, Ready, FetchFailed, Invalid };
    std::string id;                 // from the catalog (the bank's own id once loaded)
    std::string url;                // relative to the page
    State state = State::Loading;
    int fetch_request = 0;          // 0: not asked for yet (quiz= fetches its own bank first)
    std::string fetch_error;        // FetchFailed: what went wrong, in plain words
    std::vector<Diagnostic> diagnostics;  // Invalid: the validator's messages
    std::optional<Bank> bank;
    std::string fingerprint;        // the bank's (bank_fingerprint): its attempts are counted by it
    // A Markdown bank that arrived before the Markdown parser did (platform::prepare_markdown):
    // its file, read once the parser is there.
    std::optional<std::string> waiting_for_markdown;
    // A Markdown bank's formulas, with their texts' paths; checked (typeset, errors into
    // `diagnostics`) once the math module is there.
    std::vector<Formula> formulas;
    bool formulas_checked = false;
    std::size_t question_count = 0;
    ProgressRecord progress;
    std::size_t due_seen = 0;       // questions due for review when the catalog was last drawn (keep_due_counts)
    // A watched file saved again (live_reload.cpp): fetched anew while `bank` stays playable;
    // if the new version does not load, its errors are kept here and the last good one plays on.
    bool reloading = false;
    std::vector<Diagnostic> reload_problems;
};

// An exam's attempts at its bank as it is now (attempt.cpp): nullopt where they are not limited.
struct ExamAttempts {
    int used = 0, allowed = 0;
    int left() const { return used < allowed ? allowed - used : 0; }
};
std::optional<ExamAttempts> exam_attempts(const BankSlot& slot);

// Questions of one review round: enough to refresh, few enough to finish in a sitting.
constexpr std::size_t review_round_size = 20;
// The bank's questions due for review now (attempt.cpp): none for an exam (it is not practised),
// or while an attempt is in progress (a round would replace it).
std::vector<std::string> due_questions(const BankSlot& slot);
// The same, with what ranks them against other banks' (engine/review_plan.h).
std::vector<DueQuestion> ranked_due_questions(const BankSlot& slot);

// An image of the active Markdown bank's texts, from fetch to texture (pictures.cpp).
struct Picture {
    enum class State { Fetching, Decoding, Ready, Failed };
    State state = State::Fetching;
    std::string source;             // as the texts write it, relative to the bank file
    std::string url;                // relative to the page
    std::string path;               // the JSON path of the first text that shows it
    int request = 0;                // the fetch, then the decode
    int width = 0, height = 0;      // its own size in CSS pixels, once its file was read
    std::uint32_t texture = 0;      // Ready
    std::string problem;            // Failed: why, the end of "the image <source> ..."
};

struct AppState {
    Screen screen = Screen::Loading;
    Screen screen_before_settings = Screen::Catalog;

    // Loading
    std::string font_data;          // TTF bytes, kept alive for the font atlas
    int font_request = 0;
    // The faces of Markdown texts (bold, italic, bold italic, mono), fetched with the first
    // Markdown bank; empty until they come, or if one cannot (its text is then regular).
    std::array<std::string, 4> rich_font_data;
    std::array<int, 4> rich_font_requests{};
    int rich_fonts_arrived = 0;     // answered, either way; the atlas gets them once all four have
    int catalog_request = 0;
    bool catalog_loaded = false;
    std::string catalog_error;      // fetch failure or validator messages for quizzes/index.json
    std::vector<BankSlot> banks;
    MathFormulas math;              // every bank's formulas, as the math module typeset them
    // The active bank's images (the bank at `pictures_bank`), and the one shown full size.
    std::vector<Picture> pictures;
    int pictures_bank = -1;
    std::string viewing_picture;    // a source of `pictures`; "" when none is open

    // URL parameters
    std::string wanted_quiz;        // quiz=<id>: open directly
    // bank=<url>, where the deployment allows such links (web/boot.js checks): that bank alone,
    // its progress kept apart from the catalog's, no learner events sent (anyone can make such a
    // link), and a banner naming where it came from.
    std::string wanted_bank_url;
    bool embed = false;             // embed=1: compact, no catalog chrome
    bool opened_wanted_quiz = false;

    Preferences preferences;
    std::unique_ptr<KeyValueStore> storage;        // platform storage, as the engine sees it
    std::unique_ptr<ProgressStore> progress_store;

    // The quiz being played
    int active_bank = -1;
    std::optional<Session> session;
    std::optional<Feedback> feedback;   // of the current question, once checked
    // The current question's last try that was not right, while it may be tried again: what was
    // sent and what the learner is told about it (Feedback::final is false).
    struct TriedAnswer {
        Response response;
        Feedback feedback;
    };
    std::optional<TriedAnswer> tried;
    bool confirming_submit = false;     // exam: "Submit your answers?" is asked
    std::int64_t shown_seconds_left = -1;  // exam: the countdown's last published second
    bool time_up_notice_visible = false;   // exam: its time ran out and it was submitted
    Draft draft;
    std::string last_move;              // the item last moved or paired (announced to screen readers)
    std::optional<Results> results;     // of the finished session
    std::optional<Results> previous_results;  // what "Review mistakes" was started from
    // The catalog's review across quizzes (Review all, engine/review_plan.h), played one bank
    // after another: the legs still to come after the one on screen (`bank` indexes `banks`),
    // and the one on screen's number (1-based) of how many. Kept in memory only: after a reload
    // their questions are still due, and the catalog counts them.
    std::vector<ReviewLeg> review_legs;
    int review_leg = 0, review_leg_count = 0;

    // Notices
    bool storage_persistent = true;
    bool storage_notice_visible = false;
    bool write_failed_notice_visible = false;
    bool write_failed_notice_shown = false;
    bool newer_version_notice_visible = false;
    bool newer_version_notice_shown = false;
    bool reload_notice_dismissed = false;  // the learner set the reload problems aside until the next save
    std::string import_message;     // what import (or deleting progress) did, in words
    std::optional<int> pending_delete;  // asked to delete progress: a bank index, or -1 for all

    std::uint64_t seed_counter = 0;
    std::uint64_t seed_salt = 0;
    std::int64_t question_shown_at_ms = 0;  // for the xAPI "answered" duration

    const Bank* active() const {
        if (active_bank < 0 || active_bank >= static_cast<int>(banks.size())) return nullptr;
        const auto& slot = banks[static_cast<std::size_t>(active_bank)];
        return slot.bank ? &*slot.bank : nullptr;
    }
    const char* language_code() const { return app::language_code(preferences.language); }
};

}  // namespace imquiz::app

// What the files of app/ share among themselves; the rest of the program sees only app.h,
// screen_model.h and page_protocol.h.
#pragma once

#include "app/state.h"

#include "engine/bank.h"
#include "engine/session.h"
#include "platform/platform.h"

#include <cstdint>
#include <string>

namespace imquiz::app {

inline std::int64_t now() { return static_cast<std::int64_t>(platform::now_ms()); }

// preferences.cpp: the URL, then the saved setting, then the browser's language.
void load_preferences(AppState& state);
void save_preferences(AppState& state);

// progress_keeping.cpp: the learner's records through platform storage.
void open_progress_store(AppState& state);
void save_progress(AppState& state, BankSlot& slot);
void load_progress(AppState& state, BankSlot& slot);
void import_progress(AppState& state, const std::string& text);
void merge_progress_from_other_tabs(AppState& state, const std::vector<std::string>& changed_keys);
// Deletes what state.pending_delete names (one bank's progress, or all), after the learner confirmed.
void delete_progress(AppState& state);

// loading.cpp: the catalog, the font, the banks.
// `relative` beside the file at `base` (both relative to the page, or absolute).
std::string resolve_url(const std::string& base, const std::string& relative);
void start_loading(AppState& state);
// Returns true when the result was one of ours.
bool take_loaded_file(AppState& state, platform::FetchResult& result);
// Every fetch answered since the last call, each to the bank or picture that asked (app.cpp).
bool take_fetch_results(AppState& state);
// Markdown banks that arrived before the Markdown parser: read now if it has come. True if any was.
bool read_banks_waiting_for_markdown(AppState& state);
// A Markdown bank's formulas, once the math module has come (asked for here, the first time):
// typeset, a TeX error added to the bank's diagnostics. True when something changed.
bool typeset_bank_formulas(AppState& state);
// A decoded picture that is a formula's (update_math_pictures asked for it): kept. False if not.
bool claim_math_picture(AppState& state, const platform::DecodedPicture& decoded);
void fetch_bank(BankSlot& slot);
// Banks the catalog lists that were not asked for yet (quiz= fetches its own first).
void fetch_remaining_banks(AppState& state);
void open_wanted_quiz(AppState& state);

// pictures.cpp: the active bank's images, fetched, checked (engine/image_file.h) and decoded.
// fetch_pictures starts on a bank's (the one quiz= opens, as soon as it is read); update_pictures
// follows the active bank and takes decoded ones, true when one changed.
void fetch_pictures(AppState& state, int bank_index);
bool update_pictures(AppState& state);
// The pictures decoded since the last call, each to its bank picture or formula; true when one changed.
bool take_decoded_pictures(AppState& state);
// The active bank's images fetched and decoded again (a watched image or bank was saved).
void refetch_pictures(AppState& state);
bool take_picture_file(AppState& state, platform::FetchResult& result);

// attempt.cpp: playing a quiz.
BankSlot* active_slot(AppState& state);
void open_quiz(AppState& state, int bank_index, bool start_over);
void select_choice(AppState& state, const std::string& choice_id);
void set_typed_answer(AppState& state, const std::string& text);
void match_item(AppState& state, const std::string& item_id, const std::string& answer_id);
void move_item(AppState& state, const std::string& item_id, float place);
void fill_blank_of(AppState& state, const std::string& blank_id, const std::string& value);
void check_current(AppState& state);
void show_hint(AppState& state);
// Exam mode (attempt.cpp): answers recorded as given, any order, flags, one submit.
bool in_exam(const AppState& state);
void go_to_exam_question(AppState& state, std::size_t index);
void toggle_exam_flag(AppState& state);
void submit_current_exam(AppState& state);
// An exam with a time limit: publishes each second of its countdown (waking the loop for the next
// one) and submits it when none is left, also when that happened while the page was closed.
// True when the screen changed.
bool keep_exam_time(AppState& state);
// Submits the exam as it stands, with no question asked (Submit confirmed, or the time is up).
void submit_exam_now(AppState& state);
void go_next(AppState& state);
void retry_quiz(AppState& state);
void review_mistakes(AppState& state);
// A round of the bank's questions due for review (at most review_round_size, the most forgotten
// first), as practice: each told right or wrong at once, with its explanation.
void review_due(AppState& state, int bank_index);
// A round of the most urgent due questions of all quizzes (review_round_size in all,
// engine/review_plan.h), played quiz by quiz: review_next_quiz starts each; once none is left
// (or none of a quiz's questions is still due), the catalog.
void review_all(AppState& state);
void review_next_quiz(AppState& state);
// Leaves that round: a quiz opened, retried or left.
void forget_review_across(AppState& state);
// The catalog's due counts follow the clock: true when one changed since it was drawn; the loop is
// woken when the next question falls due (within the hour).
bool keep_due_counts(AppState& state);
void leave_quiz(AppState& state);
// The active bank was replaced by a new version of its file (live_reload.cpp): the attempt goes
// on in it, on the same question if it is still there, with the answers to questions that are.
void continue_on_reloaded_bank(AppState& state);

// live_reload.cpp: files saved again while the app runs (platform::take_changed_files).
// Fetches anew the banks and images that changed; true when there were any.
bool reload_changed_files(AppState& state);
// A bank read again: true when it replaced the slot's bank, or its problems were kept beside it
// (the last good version plays on); false when it is read as the first time.
bool take_reloaded_bank(AppState& state, BankSlot& slot, BankLoadResult& loaded);
// The same, for a file that could not be read at all.
bool take_failed_reload(AppState& state, BankSlot& slot, const std::string& error);

// host_events.cpp: xAPI-shaped statements for the embedding page.
void send_attempted(const AppState& state, const Bank& bank, const Session& session);
void send_answered(const AppState& state, const Bank& bank, const Question& question, const Response& response,
                   const Feedback& feedback);
void send_finished(const AppState& state, const Bank& bank, const Results& results);

}  // namespace imquiz::app

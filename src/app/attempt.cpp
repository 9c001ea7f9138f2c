// Playing a quiz: open or resume an attempt, choose and type, check, go on, finish; progress
// saved after every step, the host page told what happened.
#include "app/app_internal.h"

#include "engine/draft.h"
#include "engine/hash.h"

#include <algorithm>
#include <limits>

namespace imquiz::app {

namespace {

std::uint64_t next_seed(AppState& state) {
    // Not for secrecy: only so two attempts are shuffled differently.
    // The page's random salt keeps two tabs started in the same millisecond apart (attempt ids).
    return (static_cast<std::uint64_t>(now()) * 0x9E3779B97F4A7C15ull) ^ state.seed_salt ^ ++state.seed_counter;
}

// The session as it now is becomes the bank's attempt in progress, saved.
void save_attempt(AppState& state, BankSlot& slot) {
    slot.progress.attempt_in_progress = *state.session;
    save_progress(state, slot);
}

void reset_draft(AppState& state) {
    state.draft = Draft{};
    state.last_move.clear();
    state.tried.reset();
    if (state.session) {
        state.draft.question_index = state.session->current;
        // An ordering question starts in the attempt's shuffled order.
        const Bank* bank = state.active();
        const Question* question = bank ? current_question(*state.session, *bank) : nullptr;
        if (question) start_order(state.draft, *question, state.session->questions[state.session->current].choice_order);
        // An exam's recorded answer comes back to be changed.
        const SessionQuestion& slot = state.session->questions[state.session->current];
        if (question && in_exam(state) && slot.answer) restore_response(state.draft, *question, slot.answer->response);
        // A try that was not right comes back as it was left, with what was said about it.
        if (question && !state.feedback) {
            if (auto feedback = last_try_feedback(*state.session, *bank)) {
                const Response& last = slot.wrong_tries.back();
                restore_response(state.draft, *question, last);
                state.tried = AppState::TriedAnswer{last, std::move(*feedback)};
            }
        }
    }
    state.question_shown_at_ms = now();
}

void show_session(AppState& state, Session session) {
    state.session = std::move(session);
    state.results.reset();
    state.feedback.reset();
    state.confirming_submit = false;
    const Bank* bank = state.active();
    if (bank && !in_exam(state)) state.feedback = current_feedback(*state.session, *bank);
    reset_draft(state);
    state.screen = Screen::Question;
}

void begin_attempt(AppState& state, Session session) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank) return;
    slot->progress.attempt_in_progress = session;
    save_progress(state, *slot);
    send_attempted(state, *slot->bank, session);
    show_session(state, std::move(session));
}

void finish_attempt(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session) return;
    state.results = results(*state.session, *slot->bank);
    record_finished_attempt(slot->progress, *state.session, *slot->bank, now());
    save_progress(state, *slot);
    send_finished(state, *slot->bank, *state.results);
    state.feedback.reset();
    state.screen = Screen::Results;
}

// An exam with no attempts left opens on the results of the last one.
void show_last_results(AppState& state, const BankSlot& slot) {
    const FinishedAttempt* last = last_attempt_at(slot.progress, slot.fingerprint);
    if (!last) return;
    state.session.reset();
    state.feedback.reset();
    state.results = results_of(*last, *slot.bank);
    state.screen = Screen::Results;
}

const Question* editable_question(AppState& state) {
    const Bank* bank = state.active();
    if (!bank || !state.session || state.feedback || state.confirming_submit) return nullptr;
    return current_question(*state.session, *bank);
}

// Exam: the draft is the answer. Recorded (and saved) after every change, so that a reload or a
// move to another question never loses it; nothing in it is no answer.
void record_exam_draft(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session || !in_exam(state)) return;
    const Question* question = current_question(*state.session, *slot->bank);
    if (!question) return;
    std::optional<Response> response;
    if (!draft_is_empty(state.draft, *question)) response = draft_response(state.draft, *question);
    record_exam_answer(*state.session, *slot->bank, state.session->current, response, now());
    save_attempt(state, *slot);
}

}  // namespace

std::optional<ExamAttempts> exam_attempts(const BankSlot& slot) {
    const int allowed = slot.bank ? max_attempts(*slot.bank) : 0;
    if (allowed == 0) return std::nullopt;
    return ExamAttempts{attempts_at(slot.progress, slot.fingerprint), allowed};
}

BankSlot* active_slot(AppState& state) {
    if (state.active_bank < 0 || state.active_bank >= static_cast<int>(state.banks.size())) return nullptr;
    return &state.banks[static_cast<std::size_t>(state.active_bank)];
}

void open_quiz(AppState& state, int bank_index, bool start_over) {
    if (bank_index < 0 || bank_index >= static_cast<int>(state.banks.size())) return;
    BankSlot& slot = state.banks[static_cast<std::size_t>(bank_index)];
    if (!slot.bank) return;
    forget_review_across(state);
    state.active_bank = bank_index;
    state.previous_results.reset();
    auto& in_progress = slot.progress.attempt_in_progress;
    const std::optional<ExamAttempts> attempts = exam_attempts(slot);
    // An exam with limited attempts is submitted, not started over: starting over would be an
    // attempt that is never counted, with a fresh clock.
    if (attempts) start_over = false;
    if (!start_over && in_progress && session_matches_bank(*in_progress, *slot.bank, slot.fingerprint) && !is_finished(*in_progress)) {
        Session resumed = *in_progress;
        resume_session(resumed, now());
        resumed.attempt_id = continued_attempt_id(resumed.attempt_id, next_seed(state));
        show_session(state, std::move(resumed));
        return;
    }
    if (attempts && attempts->left() == 0) {
        show_last_results(state, slot);
        return;
    }
    begin_attempt(state, start_session(*slot.bank, next_seed(state), SessionOptions{{}, now(), /*review=*/false, slot.fingerprint}));
}

void select_choice(AppState& state, const std::string& choice_id) {
    if (const Question* question = editable_question(state))
        if (choose(state.draft, *question, choice_id)) record_exam_draft(state);
}

void set_typed_answer(AppState& state, const std::string& text) {
    if (editable_question(state)) {
        set_typed(state.draft, text);
        record_exam_draft(state);
    }
}

void match_item(AppState& state, const std::string& item_id, const std::string& answer_id) {
    if (const Question* question = editable_question(state))
        if (match(state.draft, *question, item_id, answer_id)) {
            state.last_move = item_id;
            record_exam_draft(state);
        }
}

void move_item(AppState& state, const std::string& item_id, float place) {
    const Question* question = editable_question(state);
    if (!question || !(place >= 0) || place > 1e6f) return;
    if (imquiz::move_item(state.draft, *question, item_id, static_cast<std::size_t>(place))) {
        state.last_move = item_id;
        record_exam_draft(state);
    }
}

void fill_blank_of(AppState& state, const std::string& blank_id, const std::string& value) {
    const Question* question = editable_question(state);
    if (!question || !fill_blank(state.draft, *question, blank_id, value)) return;
    // A choice picked is announced, as a matching pick is; a typed blank is not, key by key.
    const Blank* blank = question->find_blank(blank_id);
    state.last_move = blank && blank->kind == Blank::Kind::Options ? blank_id : std::string();
    record_exam_draft(state);
}

void check_current(AppState& state) {
    BankSlot* slot = active_slot(state);
    const Question* question = editable_question(state);
    if (!slot || !question || in_exam(state) || !can_check(state.draft, *question)) return;
    Response response = draft_response(state.draft, *question);
    Feedback feedback = check(*state.session, *slot->bank, response, now());
    if (feedback.problem != InputProblem::None) {
        state.draft.refused = feedback.problem;  // the screen says why; nothing is recorded
        return;
    }
    save_attempt(state, *slot);
    if (!feedback.final) {
        // Tries are left: the learner changes the answer and checks again.
        state.tried = AppState::TriedAnswer{std::move(response), std::move(feedback)};
        return;
    }
    state.tried.reset();
    state.feedback = feedback;
    send_answered(state, *slot->bank, *question, response, feedback);
}

void show_hint(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !editable_question(state) || !reveal_hint(*state.session, *slot->bank, now())) return;
    save_attempt(state, *slot);
}

bool in_exam(const AppState& state) {
    const Bank* bank = state.active();
    return bank && bank->settings.mode == Settings::Mode::Exam && state.session;
}

void go_to_exam_question(AppState& state, std::size_t index) {
    BankSlot* slot = active_slot(state);
    if (!slot || !in_exam(state) || state.confirming_submit) return;
    if (!go_to_question(*state.session, index, now())) return;
    save_attempt(state, *slot);
    reset_draft(state);
}

void toggle_exam_flag(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !in_exam(state) || !toggle_flag(*state.session, state.session->current)) return;
    save_attempt(state, *slot);
}

void submit_current_exam(AppState& state) {
    if (!in_exam(state) || !state.confirming_submit) return;
    submit_exam_now(state);
}

bool keep_exam_time(AppState& state) {
    if (state.screen != Screen::Question || !in_exam(state)) return false;
    const std::optional<std::int64_t> left = exam_time_left_ms(*state.session, *state.active(), now());
    if (!left) return false;
    if (*left == 0) {
        state.time_up_notice_visible = true;
        submit_exam_now(state);
        return true;
    }
    platform::wake_after(static_cast<int>(*left % 1000) + 1);   // when the next whole second is up
    const std::int64_t seconds = *left / 1000;   // as the countdown shows it
    if (seconds == state.shown_seconds_left) return false;
    state.shown_seconds_left = seconds;
    return true;
}

void submit_exam_now(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !in_exam(state)) return;
    state.confirming_submit = false;
    submit_exam(*state.session, now());
    // Each answer is told to the host now, as it stands: nothing was told before.
    for (const SessionQuestion& question_slot : state.session->questions) {
        const Question* question = slot->bank->find_question(question_slot.question_id);
        if (!question || !question_slot.answer) continue;
        Feedback feedback;
        feedback.correct = question_slot.answer->correct;
        feedback.score = question_slot.answer->score;
        feedback.hints_used = question_slot.hints_shown;
        send_answered(state, *slot->bank, *question, question_slot.answer->response, feedback);
    }
    finish_attempt(state);
}

void go_next(AppState& state) {
    if (in_exam(state)) {
        if (state.session->current + 1 < state.session->questions.size()) go_to_exam_question(state, state.session->current + 1);
        return;
    }
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session || !state.feedback) return;
    next(*state.session, now());
    if (is_finished(*state.session)) {
        finish_attempt(state);
        return;
    }
    state.feedback = current_feedback(*state.session, *slot->bank);
    save_attempt(state, *slot);
    reset_draft(state);
}

void retry_quiz(AppState& state) {
    const Bank* bank = state.active();
    if (!bank) return;
    if (auto attempts = exam_attempts(*active_slot(state)); attempts && attempts->left() == 0) return;
    state.previous_results.reset();
    forget_review_across(state);
    begin_attempt(state, retry_all(*bank, next_seed(state), now()));
}

std::vector<DueQuestion> ranked_due_questions(const BankSlot& slot) {
    if (!slot.bank || slot.bank->settings.mode == Settings::Mode::Exam || slot.progress.attempt_in_progress) return {};
    return ranked_due(slot.progress, *slot.bank, now());
}

std::vector<std::string> due_questions(const BankSlot& slot) {
    std::vector<std::string> ids;
    for (DueQuestion& question : ranked_due_questions(slot)) ids.push_back(std::move(question.id));
    return ids;
}

bool keep_due_counts(AppState& state) {
    if (state.screen != Screen::Catalog) return false;
    const std::int64_t at = now();
    std::int64_t next = std::numeric_limits<std::int64_t>::max();
    bool changed = false;
    for (BankSlot& slot : state.banks) {
        // A count of the schedule as it is, questions since changed included: it only tells when
        // to draw again; the card's count is due_questions'.
        std::size_t due = 0;
        if (slot.bank && slot.bank->settings.mode != Settings::Mode::Exam && !slot.progress.attempt_in_progress)
            for (const auto& entry : slot.progress.question_stats) {
                if (!entry.second.review) continue;
                const std::int64_t when = due_ms(*entry.second.review);
                if (when <= at) ++due;
                else next = std::min(next, when);
            }
        changed |= due != slot.due_seen;
        slot.due_seen = due;
    }
    if (next != std::numeric_limits<std::int64_t>::max())
        platform::wake_after(static_cast<int>(std::min<std::int64_t>(next - at + 1, 3'600'000)));
    return changed;
}

namespace {

// Starts a review round of the bank's `due` questions (non-empty), in that order.
void start_review_round(AppState& state, int bank_index, const std::vector<std::string>& due) {
    state.active_bank = bank_index;
    state.previous_results.reset();
    const BankSlot& slot = state.banks[static_cast<std::size_t>(bank_index)];
    const Bank& bank = *slot.bank;
    Session round = start_session(bank, next_seed(state), SessionOptions{due, now(), /*review=*/true, slot.fingerprint});
    // Most forgotten first, whatever the bank's order.
    std::stable_sort(round.questions.begin(), round.questions.end(), [&](const SessionQuestion& a, const SessionQuestion& b) {
        return std::find(due.begin(), due.end(), a.question_id) < std::find(due.begin(), due.end(), b.question_id);
    });
    begin_attempt(state, std::move(round));
}

}  // namespace

void review_due(AppState& state, int bank_index) {
    if (bank_index < 0 || bank_index >= static_cast<int>(state.banks.size())) return;
    std::vector<std::string> due = due_questions(state.banks[static_cast<std::size_t>(bank_index)]);
    if (due.empty()) return;
    if (due.size() > review_round_size) due.resize(review_round_size);
    forget_review_across(state);
    start_review_round(state, bank_index, due);
}

void review_all(AppState& state) {
    std::vector<std::vector<DueQuestion>> due;
    for (const BankSlot& slot : state.banks) due.push_back(ranked_due_questions(slot));
    std::vector<ReviewLeg> legs = plan_review(due, review_round_size);
    if (legs.empty()) return;
    state.review_legs = std::move(legs);
    state.review_leg = 0;
    state.review_leg_count = static_cast<int>(state.review_legs.size());
    review_next_quiz(state);
}

void review_next_quiz(AppState& state) {
    while (!state.review_legs.empty()) {
        const ReviewLeg leg = state.review_legs.front();
        state.review_legs.erase(state.review_legs.begin());
        ++state.review_leg;
        if (leg.bank >= state.banks.size()) continue;
        // Those still due: another tab may have reviewed some, or the bank changed since.
        const std::vector<std::string> due = due_questions(state.banks[leg.bank]);
        std::vector<std::string> ids;
        for (const std::string& id : leg.question_ids)
            if (std::find(due.begin(), due.end(), id) != due.end()) ids.push_back(id);
        if (ids.empty()) continue;
        start_review_round(state, static_cast<int>(leg.bank), ids);
        return;
    }
    if (state.review_leg_count > 0) leave_quiz(state);
}

void forget_review_across(AppState& state) {
    state.review_legs.clear();
    state.review_leg = state.review_leg_count = 0;
}

void review_mistakes(AppState& state) {
    const Bank* bank = state.active();
    if (!bank || !state.results || missed_question_ids(*state.results).empty()) return;
    state.previous_results = state.results;
    begin_attempt(state, retry_missed(*bank, *state.results, next_seed(state), now()));
}

void leave_quiz(AppState& state) {
    forget_review_across(state);
    state.screen = Screen::Catalog;
    state.session.reset();
    state.feedback.reset();
    state.results.reset();
    state.active_bank = -1;
    fetch_remaining_banks(state);
}

}  // namespace imquiz::app

namespace imquiz::app {

void continue_on_reloaded_bank(AppState& state) {
    BankSlot* slot = active_slot(state);
    if (!slot || !slot->bank || !state.session || state.screen != Screen::Question) return;
    const Session& old = *state.session;
    const Bank& bank = *slot->bank;
    // Same seed: an unchanged bank is drawn and shuffled the same way.
    Session next = start_session(bank, old.seed, SessionOptions{{}, now(), /*review=*/false, slot->fingerprint});
    next.attempt_id = old.attempt_id;
    next.started_at_ms = old.started_at_ms;
    next.elapsed_ms = old.elapsed_ms;
    for (SessionQuestion& question : next.questions) {
        auto kept = std::find_if(old.questions.begin(), old.questions.end(),
                                 [&](const SessionQuestion& q) { return q.question_id == question.question_id; });
        if (kept == old.questions.end()) continue;
        const Question* now_there = bank.find_question(question.question_id);
        bool same_choices = now_there && kept->choice_order.size() == now_there->choices.size() &&
                            std::all_of(kept->choice_order.begin(), kept->choice_order.end(),
                                        [&](const std::string& id) { return now_there->find_choice(id) != nullptr; });
        if (!same_choices) continue;
        question.choice_order = kept->choice_order;
        question.answer = kept->answer;
        question.hints_shown = std::min(kept->hints_shown, now_there->hints.size());
        question.wrong_tries = kept->wrong_tries;
    }
    // The question on screen, where it still is; else the one at the same place.
    std::string current_id = old.current < old.questions.size() ? old.questions[old.current].question_id : "";
    auto same = std::find_if(next.questions.begin(), next.questions.end(),
                             [&](const SessionQuestion& q) { return q.question_id == current_id; });
    next.current = same != next.questions.end() ? static_cast<std::size_t>(same - next.questions.begin())
                                                : std::min(old.current, next.questions.empty() ? 0 : next.questions.size() - 1);
    slot->progress.attempt_in_progress = next;
    save_progress(state, *slot);
    show_session(state, std::move(next));
}

}  // namespace imquiz::app

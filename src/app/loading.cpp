// The catalog (quizzes/index.json), the font and the banks: fetched through the platform,
// validated by the engine, kept in BankSlots with what went wrong in plain words.
#include "app/app_internal.h"
#include "app/player.h"

#include "engine/bank_loader.h"
#include "engine/unicode.h"

#include <algorithm>

namespace imquiz::app {

namespace {

constexpr const char* catalog_url = "quizzes/index.json";
constexpr const char* font_url = "fonts/imquiz-sans.ttf";
constexpr const char* rich_font_urls[] = {"fonts/imquiz-sans-bold.ttf", "fonts/imquiz-sans-italic.ttf",
                                          "fonts/imquiz-sans-bold-italic.ttf", "fonts/imquiz-mono.ttf"};

bool succeeded(const platform::FetchResult& result) { return result.http_status >= 200 && result.http_status < 300; }

void on_catalog(AppState& state, const platform::FetchResult& result) {
    state.catalog_loaded = true;
    if (!succeeded(result)) {
        state.catalog_error = std::string(catalog_url) + ": " + result.error;
        return;
    }
    CatalogLoadResult catalog = load_catalog(result.body, catalog_url);
    for (const auto& d : catalog.diagnostics)
        if (d.severity == Diagnostic::Severity::Error) state.catalog_error += format_diagnostic(d) + "\n";
    if (!catalog.catalog) return;
    for (const auto& entry : catalog.catalog->banks) {
        BankSlot slot;
        slot.id = entry.id;
        slot.url = resolve_url(catalog_url, entry.file);
        state.banks.push_back(std::move(slot));
    }
    // quiz=<id>: that bank alone first, so the question comes as soon as it can; the others
    // when the learner goes to the catalog (fetch_remaining_banks).
    for (auto& slot : state.banks)
        if (state.wanted_quiz.empty() || slot.id == state.wanted_quiz) fetch_bank(slot);
}

// A bank that may be Markdown needs the parser first (on the web a module of its own, fetched
// on first need): the quick look for the field's name only decides whether to wait for it;
// the loader reads the field itself. A plain bank never waits and never fetches the parser.
bool needs_markdown_parser(BankSlot& slot, std::string& body) {
    if (!rich_player) return false;  // the rich player reads it: see read_bank
    if (body.find("\"textFormat\"") == std::string::npos) return false;
    std::string error;
    switch (platform::prepare_markdown(error)) {
    case platform::MarkdownParser::Ready: return false;
    case platform::MarkdownParser::Loading: slot.waiting_for_markdown = std::move(body); return true;
    case platform::MarkdownParser::Failed:
        slot.state = BankSlot::State::FetchFailed;
        slot.fetch_error = error;
        return true;
    }
    return false;
}

void read_bank(AppState& state, BankSlot& slot, std::string& body) {
    if (needs_markdown_parser(slot, body)) return;
    BankLoadResult loaded = load_bank(body, slot.url);
    if (take_reloaded_bank(state, slot, loaded)) return;
    slot.diagnostics = loaded.diagnostics;
    slot.formulas = std::move(loaded.formulas);
    slot.formulas_checked = false;
    if (!loaded.bank) {
        slot.state = BankSlot::State::Invalid;
        return;
    }
    // The plain player read a Markdown bank without its parser (markdown_web.cpp): only to learn
    // that it is one. The rich player takes over; until the page has started it, the card loads.
    if (!rich_player && loaded.bank->text_format == TextFormat::Markdown) {
        if (!platform::open_rich_player()) {
            slot.state = BankSlot::State::FetchFailed;
            slot.fetch_error = "this quiz is written in Markdown, and the player that shows Markdown could not start here";
        }
        return;
    }
    slot.bank = std::move(loaded.bank);
    slot.fingerprint = bank_fingerprint(*slot.bank);
    slot.question_count = slot.bank->questions.size();
    if (slot.id.empty()) slot.id = slot.bank->id;
    slot.state = BankSlot::State::Ready;
    if (slot.bank->text_format == TextFormat::Markdown && state.rich_font_requests[0] == 0)
        for (std::size_t i = 0; i < state.rich_font_requests.size(); ++i)
            state.rich_font_requests[i] = platform::start_fetch(rich_font_urls[i]);
    load_progress(state, slot);
    if (!state.wanted_bank_url.empty()) state.wanted_quiz = slot.id;  // bank=: the one bank, opened
    // The quiz the link opens: its images are asked for now, while its first frame is built.
    if (slot.id == state.wanted_quiz && !slot.bank->images.empty())
        fetch_pictures(state, static_cast<int>(&slot - state.banks.data()));
}

void on_bank(AppState& state, BankSlot& slot, platform::FetchResult& result) {
    if (!succeeded(result)) {
        std::string error = result.error.empty() ? "no answer" : result.error;
        if (take_failed_reload(state, slot, error)) return;
        slot.state = BankSlot::State::FetchFailed;
        slot.fetch_error = error;
        return;
    }
    read_bank(state, slot, result.body);
}

}  // namespace

std::string resolve_url(const std::string& base, const std::string& relative) {
    std::size_t slash = base.rfind('/');
    return slash == std::string::npos ? relative : base.substr(0, slash + 1) + relative;
}

bool read_banks_waiting_for_markdown(AppState& state) {
    bool changed = false;
    for (auto& slot : state.banks) {
        if (!slot.waiting_for_markdown) continue;
        std::string body = std::move(*slot.waiting_for_markdown);
        slot.waiting_for_markdown.reset();
        read_bank(state, slot, body);
        changed |= !slot.waiting_for_markdown;
    }
    return changed;
}

namespace {

// Takes the module's answers for a bank's formulas into state.math. False while some are on their
// way: a module that typesets away from the main thread (the web's worker) answers "" for a formula
// it was just asked for, and wakes the loop once all it was asked have come.
bool take_formula_answers(AppState& state, const BankSlot& slot, bool& changed) {
    bool all_here = true;
    for (const Formula& formula : slot.formulas) {
        // Typeset as the screen shows it (bank_texts.h): the key the canvas looks up.
        std::string tex = neutralize_for_display(formula.tex);
        std::string key = formula_key(tex, formula.display);
        if (state.math.find(key)) continue;
        std::string answer = platform::typeset_math(tex, formula.display);
        if (answer.empty()) {
            all_here = false;
            continue;
        }
        std::optional<TypesetFormula> typeset = decode_math_answer(answer);
        if (!typeset) continue;   // a torn answer: this formula stays TeX
        state.math.typeset.emplace_back(key, std::move(*typeset));
        changed = true;
    }
    return all_here;
}

}  // namespace

// The module is asked for only by the bank being played (or the one the link opens) when it has
// formulas: a plain bank, a Markdown bank without math, and a catalog of banks with math never
// load it (MathJax is a third of a megabyte; a learner browsing the catalog sees no formula).
bool typeset_bank_formulas(AppState& state) {
    if (!rich_player) return false;
    auto waiting = [&](const BankSlot& slot) {
        const bool playing = &slot - state.banks.data() == state.active_bank || slot.id == state.wanted_quiz;
        return playing && slot.state == BankSlot::State::Ready && !slot.formulas.empty() && !slot.formulas_checked;
    };
    const BankSlot* first = nullptr;
    for (const auto& slot : state.banks)
        if (!first && waiting(slot)) first = &slot;
    if (!first) return false;
    std::string error;
    platform::MathTypesetter typesetter =
        state.math.unavailable ? platform::MathTypesetter::Absent : platform::prepare_math(first->url, error);
    state.math.asked = true;
    if (typesetter == platform::MathTypesetter::Loading) return false;
    bool ready = typesetter == platform::MathTypesetter::Ready;
    // Failed or Absent: the formulas stay TeX, for the rest of this visit.
    if (!ready) state.math.unavailable = true;
    bool changed = false;
    for (auto& slot : state.banks) {
        if (!waiting(slot)) continue;
        // Those typeset so far are drawn; the bank's errors are told once all have come.
        if (ready && !take_formula_answers(state, slot, changed)) continue;
        slot.formulas_checked = true;
        changed = true;
        if (!ready) continue;
        for (const Formula& formula : slot.formulas) {
            const TypesetFormula* found = state.math.find(formula_key(neutralize_for_display(formula.tex), formula.display));
            if (!found || found->ok) continue;
            Diagnostic problem;
            problem.file = slot.url;
            problem.path = formula.path;
            problem.message = "TeX error in " + in_quotes(formula.tex) + ": " + found->error;
            slot.diagnostics.push_back(std::move(problem));
        }
    }
    return changed;
}

bool claim_math_picture(AppState& state, const platform::DecodedPicture& decoded) {
    if (!rich_player) return false;
    for (MathPicture& picture : state.math.pictures) {
        if (picture.request == 0 || picture.request != decoded.request_id) continue;
        picture.request = 0;
        picture.texture = decoded.texture;
        picture.failed = decoded.texture == 0;
        return true;
    }
    return false;
}

bool update_math_pictures(AppState& state, const std::vector<std::string>& drawn,
                          const std::vector<WantedMathPicture>& wanted) {
    if (!rich_player) return false;
    auto& pictures = state.math.pictures;
    for (const WantedMathPicture& want : wanted) {
        if (state.math.picture(want.key)) continue;
        MathPicture picture;
        picture.key = want.key;
        picture.request = platform::start_picture_decode(want.svg, "image/svg+xml", want.width, want.height, {});
        pictures.push_back(std::move(picture));
    }
    // Answered at once (read ahead by the page, or a platform that decodes as it is asked).
    const bool taken = take_decoded_pictures(state);
    ++state.math.frame;
    for (MathPicture& picture : pictures)
        if (std::find(drawn.begin(), drawn.end(), picture.key) != drawn.end()) picture.last_used = state.math.frame;
    if (pictures.size() <= 64) return taken;
    auto unused = [&](const MathPicture& p) { return p.request == 0 && p.last_used < state.math.frame; };
    for (const MathPicture& picture : pictures)
        if (unused(picture) && picture.texture) platform::free_picture(picture.texture);
    pictures.erase(std::remove_if(pictures.begin(), pictures.end(), unused), pictures.end());
    return taken;
}

void fetch_bank(BankSlot& slot) {
    slot.state = BankSlot::State::Loading;
    slot.fetch_error.clear();
    slot.diagnostics.clear();
    slot.waiting_for_markdown.reset();
    slot.fetch_request = platform::start_fetch(slot.url);
}

void fetch_remaining_banks(AppState& state) {
    for (auto& slot : state.banks)
        if (slot.fetch_request == 0) fetch_bank(slot);
}

void start_loading(AppState& state) {
    state.font_request = platform::start_fetch(font_url);
    if (!state.wanted_bank_url.empty()) {
        // A bank under development: shown on its own, without the catalog.
        BankSlot slot;
        slot.url = state.wanted_bank_url;
        state.banks.push_back(std::move(slot));
        fetch_bank(state.banks.back());
        state.catalog_loaded = true;
    } else {
        state.catalog_request = platform::start_fetch(catalog_url);
    }
}

bool take_loaded_file(AppState& state, platform::FetchResult& result) {
    if (result.request_id == state.font_request) {
        if (succeeded(result)) state.font_data = std::move(result.body);
        else state.catalog_error = std::string(font_url) + ": " + result.error;
        return true;
    }
    for (std::size_t i = 0; i < state.rich_font_requests.size(); ++i) {
        if (result.request_id != state.rich_font_requests[i]) continue;
        if (succeeded(result)) state.rich_font_data[i] = std::move(result.body);
        ++state.rich_fonts_arrived;
        return true;
    }
    if (result.request_id == state.catalog_request) {
        on_catalog(state, result);
        return true;
    }
    for (auto& slot : state.banks) {
        if (slot.fetch_request != result.request_id) continue;
        on_bank(state, slot, result);
        return true;
    }
    return false;
}

// quiz=<id> (or bank=<url>) opens the quiz as soon as its bank is ready.
void open_wanted_quiz(AppState& state) {
    if (state.opened_wanted_quiz || state.wanted_quiz.empty() || !state.catalog_loaded) return;
    for (std::size_t i = 0; i < state.banks.size(); ++i) {
        BankSlot& slot = state.banks[i];
        if (slot.id != state.wanted_quiz) continue;
        if (slot.state == BankSlot::State::Loading) return;
        state.opened_wanted_quiz = true;
        if (slot.state == BankSlot::State::Ready) open_quiz(state, static_cast<int>(i), false);
        else fetch_remaining_banks(state);  // it failed: the catalog shows why, beside the others
        return;
    }
    state.opened_wanted_quiz = true;  // not in the catalog: the catalog says so, with the others
    fetch_remaining_banks(state);
}

}  // namespace imquiz::app

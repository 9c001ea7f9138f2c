// libFuzzer harness for bank and catalog files (engine/bank_loader.h): the bytes go through
// load_bank, load_catalog, detect_document_kind and validate_document, with the default limits
// and with tiny ones (so every limit path is reached by short inputs). Nothing may throw, abort,
// read out of bounds or overflow; and every bank that loads must
//   - come with no error (a bank is only returned without errors),
//   - survive bank_to_json -> load_bank (the writer's output always validates, same question
//     count),
//   - be playable: a whole session with arbitrary responses, results, export to GIFT.
// And the engine's fast JSON reader must agree with nlohmann's parser on every input (the same
// document and diagnostics): it reads well-formed text itself and hands the rest to nlohmann's.
// Built by tests/fuzz/CMakeLists.txt (IMQUIZ_FUZZ=ON, clang-14); run by scripts/fuzz.
#include "engine/bank_loader.h"
#include "engine/bank_writer.h"
#include "engine/import/import.h"
#include "engine/json/reader.h"
#include "engine/session.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

namespace {

void play(const imquiz::Bank& bank, std::string_view text) {
    imquiz::Session session = imquiz::start_session(bank, text.size());
    std::int64_t now = 1000;
    while (!imquiz::is_finished(session)) {
        const imquiz::Question* question = imquiz::current_question(session, bank);
        if (question == nullptr)
            std::abort();   // a fresh session only refers to questions of its bank
        std::vector<std::string> picks;
        for (const imquiz::Choice& choice : question->choices)
            if (choice.correct)
                picks.push_back(choice.id);
        imquiz::check(session, bank, imquiz::Response::typed(std::string(text.substr(0, 12))), now);
        imquiz::check(session, bank, imquiz::Response::choices(picks), now);
        imquiz::check(session, bank, imquiz::Response::boolean(true), now);
        imquiz::current_feedback(session, bank);
        imquiz::next(session, now += 1000);
    }
    const imquiz::Results results = imquiz::results(session, bank);
    imquiz::retry_missed(bank, results, 7, now);
    for (const std::string& language : bank.languages)
        (void)imquiz::export_gift(bank, language);
}

void check_bank(const imquiz::BankLoadResult& loaded, std::string_view text) {
    if (!loaded.bank)
        return;
    if (imquiz::has_errors(loaded.diagnostics))
        std::abort();
    const std::string written = imquiz::bank_to_json(*loaded.bank);
    const imquiz::BankLoadResult again = imquiz::load_bank(written, "written.json");
    if (!again.bank || again.bank->questions.size() != loaded.bank->questions.size())
        std::abort();   // what the writer writes, the loader reads back
    play(*loaded.bank, text);
}

std::string outcome(const imquiz::JsonReadResult& result) {
    std::string text;
    for (const imquiz::Diagnostic& diagnostic : result.diagnostics)
        text += imquiz::format_diagnostic_with_severity(diagnostic) + "\n";
    text += result.array_limit_reached ? "(array limit)\n" : "";
    return text + (result.document ? imquiz::dump_json(imquiz::to_json(result.document->root()))
                                   : std::string("(no document)"));
}

void check_readers_agree(std::string_view text, const imquiz::LoadLimits& limits) {
    const imquiz::JsonArrayLimit questions{"questions", limits.max_questions};
    if (outcome(imquiz::read_json(text, "fuzz.json", limits, &questions)) !=
        outcome(imquiz::read_json_with_reference_parser(text, "fuzz.json", limits, &questions)))
        std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);

    check_bank(imquiz::load_bank(text, "fuzz.json"), text);
    const imquiz::CatalogLoadResult catalog = imquiz::load_catalog(text, "index.json");
    if (catalog.catalog && imquiz::has_errors(catalog.diagnostics))
        std::abort();
    (void)imquiz::detect_document_kind(text);
    (void)imquiz::validate_document(text, "fuzz.json");

    imquiz::LoadLimits tiny;
    tiny.max_file_bytes = 2048;
    tiny.max_text_bytes = 24;
    tiny.max_questions = 3;
    tiny.max_choices_per_question = 3;
    tiny.max_nesting_depth = 5;
    tiny.max_diagnostics = 6;
    check_readers_agree(text, imquiz::LoadLimits{});
    check_readers_agree(text, tiny);
    const imquiz::BankLoadResult limited = imquiz::load_bank(text, "tiny.json", tiny);
    if (limited.diagnostics.size() > tiny.max_diagnostics)
        std::abort();   // reporting stops at the limit
    if (limited.bank && imquiz::has_errors(limited.diagnostics))
        std::abort();
    (void)imquiz::load_catalog(text, "tiny.json", tiny);
    return 0;
}

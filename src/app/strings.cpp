#include "app/strings.h"

#include <cctype>

namespace imquiz::app {
namespace {

struct Entry {
    Str id;
    const char* text;
};

// Each table lists every Str once; tests/unit/test_ui_strings.cpp checks that none is missing.
constexpr Entry english[] = {
    {Str::AppName, "ImQuiz"},
    {Str::Loading, "Loading…"},
    {Str::LoadingQuiz, "Loading the quiz…"},
    {Str::Catalog, "Quizzes"},
    {Str::CatalogEmpty, "No quizzes are listed in quizzes/index.json yet."},
    {Str::QuestionsCount, "%d questions"},
    {Str::BestScore, "Best: %d%%"},
    {Str::NotTakenYet, "Not taken yet"},
    {Str::DevelopmentBank, "A bank under development, from %s. Its progress is kept apart from the catalog's quizzes, and nothing is sent to the course page."},
    {Str::DeleteProgress, "Delete progress"},
    {Str::DeleteAllProgress, "Delete all progress"},
    {Str::ConfirmDeleteQuiz, "Delete your progress in “%s”? Finished attempts, the best score and the attempt in progress go, and this cannot be undone."},
    {Str::ConfirmDeleteAll, "Delete your progress in every quiz here? Finished attempts, best scores and attempts in progress go, and this cannot be undone."},
    {Str::Delete, "Delete"},
    {Str::Cancel, "Cancel"},
    {Str::ProgressDeleted, "Progress deleted."},
    {Str::ShowMore, "Show more questions"},
    {Str::CopyCode, "Copy"},
    {Str::ClosePicture, "Close"},
    {Str::PictureNotShown, "image not shown"},
    {Str::InProgress, "In progress: %d of %d answered"},
    {Str::NotANumber, "That is not a number. Use digits, with a point or a comma for decimals."},
    {Str::Start, "Start"},
    {Str::Continue, "Continue"},
    {Str::StartOver, "Start over"},
    {Str::Settings, "Settings"},
    {Str::Back, "Back"},
    {Str::Check, "Check"},
    {Str::Next, "Next"},
    {Str::SeeResults, "See results"},
    {Str::Correct, "Correct"},
    {Str::Incorrect, "Incorrect"},
    {Str::PartlyCorrect, "Partly correct"},
    {Str::YourAnswer, "Your answer"},
    {Str::CorrectAnswer, "Correct answer"},
    {Str::Explanation, "Explanation"},
    {Str::SelectOne, "Choose one answer."},
    {Str::SelectAll, "Choose all answers that apply."},
    {Str::TrueLabel, "True"},
    {Str::FalseLabel, "False"},
    {Str::TypeNumber, "Type a number"},
    {Str::TypeAnswer, "Type your answer"},
    {Str::QuestionOf, "Question %d of %d"},
    {Str::Results, "Results"},
    {Str::Score, "%s of %s points"},
    {Str::Passed, "Passed"},
    {Str::NotPassed, "Not passed"},
    {Str::PassMark, "Pass mark: %d%%"},
    {Str::TimeTaken, "Time taken"},
    {Str::Retry, "Retry"},
    {Str::ReviewMistakes, "Review mistakes"},
    {Str::BackToCatalog, "Back to quizzes"},
    {Str::PastAttempts, "Past attempts"},
    {Str::NoAnswer, "No answer"},
    {Str::Theme, "Theme"},
    {Str::ThemeLight, "Light"},
    {Str::ThemeDark, "Dark"},
    {Str::ThemeSystem, "System"},
    {Str::TextSize, "Text size"},
    {Str::Language, "Language"},
    {Str::Progress, "Your progress"},
    {Str::ExportProgress, "Export progress"},
    {Str::ImportProgress, "Import progress"},
    {Str::ImportSummary, "Imported %d quizzes: %d attempts added."},
    {Str::ImportFailed, "This file could not be imported:"},
    {Str::StorageUnavailable,
     "This browser does not let ImQuiz save progress here, so it will be lost when you close the "
     "page. Use Settings › Export progress to keep it."},
    {Str::StorageWriteFailed,
     "Your latest progress could not be saved (the browser’s storage is full or blocked). The quiz "
     "goes on; export your progress from Settings to keep it."},
    {Str::Dismiss, "OK"},
    {Str::CouldNotLoad, "Could not load this quiz"},
    {Str::InvalidBank, "This quiz file has errors"},
    {Str::RetryLoad, "Retry"},
    {Str::ShortcutsHint, "Keys: 1–9 choose · Enter check / next · Esc back"},
    {Str::Done, "Done"},
    {Str::QuizNotFound, "There is no quiz with this id in the catalog."},
    {Str::MatchInstruction, "Pair each item with its answer."},
    {Str::OrderInstruction, "Put the items in the right order."},
    {Str::ChooseAnswer, "Choose…"},
    {Str::MoveUp, "Move up"},
    {Str::MoveDown, "Move down"},
    {Str::PlaceOf, "Place %d of %d"},
    {Str::MovedTo, "now at place %d of %d"},
    {Str::PairedWith, "paired with"},
    {Str::Unpaired, "Not paired"},
    {Str::RightAnswerIs, "Right answer:"},
    {Str::RightPlaceIs, "Right place: %d"},
    {Str::MatchShortcutsHint, "Keys: arrows to an item's answer · Space opens the list and picks · Enter check / next · Esc back"},
    {Str::OrderShortcutsHint, "Keys: arrows to Move up / Move down · Space moves · Enter check / next · Esc back"},
    {Str::ClozeInstruction, "Fill in every blank."},
    {Str::BlankOf, "Blank %d of %d"},
    {Str::BlankNumber, "Blank %d"},
    {Str::ClozeShortcutsHint, "Keys: Tab to the next blank · arrows to a list · Space opens it and picks · Enter check / next · Esc back"},
    {Str::HintOf, "Hint %d of %d"},
    {Str::ShowHint, "Show a hint"},
    {Str::HintCost, "costs %d%% of this question's points"},
    {Str::TryOf, "Try %d of %d"},
    {Str::NotRightYet, "Not right yet"},
    {Str::TriesLeft, "Tries left: %d. Change your answer and check again."},
    {Str::HintsAndTries, "Hints used: %d · Tries: %d"},
    {Str::PointsOfOne, "Points: %s of 1"},
    {Str::ExamQuestions, "Questions"},
    {Str::ExamAnswered, "Answered: %d of %d"},
    {Str::PaletteAnswered, "answered"},
    {Str::PaletteNotAnswered, "not answered"},
    {Str::PaletteFlagged, "flagged"},
    {Str::PaletteCurrent, "shown now"},
    {Str::FlagQuestion, "Flag for review"},
    {Str::UnflagQuestion, "Remove the flag"},
    {Str::PreviousQuestion, "Previous"},
    {Str::SubmitAnswers, "Submit answers…"},
    {Str::ConfirmSubmit, "Submit your answers? You cannot change them afterwards."},
    {Str::UnansweredList, "Not answered: %s."},
    {Str::AllAnswered, "Every question is answered."},
    {Str::KeepAnswering, "Keep answering"},
    {Str::SubmitNow, "Submit"},
    {Str::ExamShortcutsHint, "Keys: 1–9 choose · Enter next question · Esc back"},
    {Str::ScoreOnly, "This quiz shows the score only, not the answers."},
    {Str::ReloadProblems, "The saved file has problems. Until they are fixed, you are playing its last good version:"},
    {Str::NewerVersionRecord,
     "Your progress on this quiz was saved by a newer version of ImQuiz. It is kept untouched, so "
     "this attempt will not be saved here; reload the page to get the newer version."},
};

constexpr Entry russian[] = {
    {Str::AppName, "ImQuiz"},
    {Str::Loading, "Загрузка…"},
    {Str::LoadingQuiz, "Загружаем тест…"},
    {Str::Catalog, "Тесты"},
    {Str::CatalogEmpty, "В quizzes/index.json пока нет ни одного теста."},
    {Str::QuestionsCount, "Вопросов: %d"},
    {Str::BestScore, "Лучший результат: %d%%"},
    {Str::NotTakenYet, "Ещё не пройден"},
    {Str::DevelopmentBank, "Тест в разработке, загружен из %s. Его прогресс хранится отдельно от тестов каталога, и на страницу курса ничего не отправляется."},
    {Str::DeleteProgress, "Удалить прогресс"},
    {Str::DeleteAllProgress, "Удалить весь прогресс"},
    {Str::ConfirmDeleteQuiz, "Удалить ваш прогресс в тесте «%s»? Будут удалены завершённые попытки, лучший результат и начатая попытка. Это нельзя отменить."},
    {Str::ConfirmDeleteAll, "Удалить ваш прогресс во всех тестах? Будут удалены завершённые попытки, лучшие результаты и начатые попытки. Это нельзя отменить."},
    {Str::Delete, "Удалить"},
    {Str::Cancel, "Отмена"},
    {Str::ProgressDeleted, "Прогресс удалён."},
    {Str::ShowMore, "Показать ещё вопросы"},
    {Str::CopyCode, "Копировать"},
    {Str::ClosePicture, "Закрыть"},
    {Str::PictureNotShown, "изображение не показано"},
    {Str::InProgress, "В процессе: отвечено %d из %d"},
    {Str::NotANumber, "Это не число. Введите цифры; дробную часть отделите точкой или запятой."},
    {Str::Start, "Начать"},
    {Str::Continue, "Продолжить"},
    {Str::StartOver, "Начать заново"},
    {Str::Settings, "Настройки"},
    {Str::Back, "Назад"},
    {Str::Check, "Проверить"},
    {Str::Next, "Далее"},
    {Str::SeeResults, "К результатам"},
    {Str::Correct, "Верно"},
    {Str::Incorrect, "Неверно"},
    {Str::PartlyCorrect, "Частично верно"},
    {Str::YourAnswer, "Ваш ответ"},
    {Str::CorrectAnswer, "Правильный ответ"},
    {Str::Explanation, "Пояснение"},
    {Str::SelectOne, "Выберите один ответ."},
    {Str::SelectAll, "Выберите все верные ответы."},
    {Str::TrueLabel, "Верно"},
    {Str::FalseLabel, "Неверно"},
    {Str::TypeNumber, "Введите число"},
    {Str::TypeAnswer, "Введите ответ"},
    {Str::QuestionOf, "Вопрос %d из %d"},
    {Str::Results, "Результаты"},
    {Str::Score, "%s из %s баллов"},
    {Str::Passed, "Тест пройден"},
    {Str::NotPassed, "Тест не пройден"},
    {Str::PassMark, "Проходной балл: %d%%"},
    {Str::TimeTaken, "Время"},
    {Str::Retry, "Пройти снова"},
    {Str::ReviewMistakes, "Разобрать ошибки"},
    {Str::BackToCatalog, "К списку тестов"},
    {Str::PastAttempts, "Прошлые попытки"},
    {Str::NoAnswer, "Нет ответа"},
    {Str::Theme, "Тема"},
    {Str::ThemeLight, "Светлая"},
    {Str::ThemeDark, "Тёмная"},
    {Str::ThemeSystem, "Как в системе"},
    {Str::TextSize, "Размер текста"},
    {Str::Language, "Язык"},
    {Str::Progress, "Ваш прогресс"},
    {Str::ExportProgress, "Экспортировать прогресс"},
    {Str::ImportProgress, "Импортировать прогресс"},
    {Str::ImportSummary, "Импортировано тестов: %d, добавлено попыток: %d."},
    {Str::ImportFailed, "Не удалось импортировать файл:"},
    {Str::StorageUnavailable,
     "Браузер не разрешает ImQuiz сохранять прогресс на этой странице: он пропадёт, когда вы её "
     "закроете. Чтобы сохранить его, откройте «Настройки» › «Экспортировать прогресс»."},
    {Str::StorageWriteFailed,
     "Не удалось сохранить последние ответы (хранилище браузера переполнено или заблокировано). "
     "Тест продолжается; экспортируйте прогресс в настройках, чтобы не потерять его."},
    {Str::Dismiss, "Понятно"},
    {Str::CouldNotLoad, "Не удалось загрузить тест"},
    {Str::InvalidBank, "В файле теста есть ошибки"},
    {Str::RetryLoad, "Повторить"},
    {Str::ShortcutsHint, "Клавиши: 1–9 — выбор · Enter — проверить / далее · Esc — назад"},
    {Str::Done, "Готово"},
    {Str::QuizNotFound, "В каталоге нет теста с таким идентификатором."},
    {Str::MatchInstruction, "Сопоставьте каждый элемент с ответом."},
    {Str::OrderInstruction, "Расположите элементы в правильном порядке."},
    {Str::ChooseAnswer, "Выберите…"},
    {Str::MoveUp, "Выше"},
    {Str::MoveDown, "Ниже"},
    {Str::PlaceOf, "Место %d из %d"},
    {Str::MovedTo, "теперь на месте %d из %d"},
    {Str::PairedWith, "сопоставлено с"},
    {Str::Unpaired, "Не сопоставлено"},
    {Str::RightAnswerIs, "Верный ответ:"},
    {Str::RightPlaceIs, "Верное место: %d"},
    {Str::MatchShortcutsHint, "Клавиши: стрелки — к ответу элемента · Пробел открывает список и выбирает · Enter — проверить / далее · Esc — назад"},
    {Str::OrderShortcutsHint, "Клавиши: стрелки — к «Выше» / «Ниже» · Пробел перемещает · Enter — проверить / далее · Esc — назад"},
    {Str::ClozeInstruction, "Заполните все пропуски."},
    {Str::BlankOf, "Пропуск %d из %d"},
    {Str::BlankNumber, "Пропуск %d"},
    {Str::ClozeShortcutsHint, "Клавиши: Tab — к следующему пропуску · стрелки — к списку · Пробел открывает его и выбирает · Enter — проверить / далее · Esc — назад"},
    {Str::HintOf, "Подсказка %d из %d"},
    {Str::ShowHint, "Показать подсказку"},
    {Str::HintCost, "стоит %d%% баллов за этот вопрос"},
    {Str::TryOf, "Попытка %d из %d"},
    {Str::NotRightYet, "Пока неверно"},
    {Str::TriesLeft, "Осталось попыток: %d. Измените ответ и проверьте снова."},
    {Str::HintsAndTries, "Подсказок: %d · Попыток: %d"},
    {Str::PointsOfOne, "Баллы: %s из 1"},
    {Str::ExamQuestions, "Вопросы"},
    {Str::ExamAnswered, "Отвечено: %d из %d"},
    {Str::PaletteAnswered, "есть ответ"},
    {Str::PaletteNotAnswered, "нет ответа"},
    {Str::PaletteFlagged, "отмечен"},
    {Str::PaletteCurrent, "показан сейчас"},
    {Str::FlagQuestion, "Отметить для проверки"},
    {Str::UnflagQuestion, "Снять отметку"},
    {Str::PreviousQuestion, "Предыдущий"},
    {Str::SubmitAnswers, "Сдать ответы…"},
    {Str::ConfirmSubmit, "Сдать ответы? Изменить их потом будет нельзя."},
    {Str::UnansweredList, "Без ответа: %s."},
    {Str::AllAnswered, "На все вопросы есть ответ."},
    {Str::KeepAnswering, "Продолжить"},
    {Str::SubmitNow, "Сдать"},
    {Str::ExamShortcutsHint, "Клавиши: 1–9 — выбор · Enter — следующий вопрос · Esc — назад"},
    {Str::ScoreOnly, "В этом тесте показывается только результат, без ответов."},
    {Str::ReloadProblems, "В сохранённом файле есть ошибки. Пока они не исправлены, открыта его последняя рабочая версия:"},
    {Str::NewerVersionRecord,
     "Ваш прогресс в этом тесте сохранён более новой версией ImQuiz. Он останется нетронутым, поэтому "
     "эта попытка здесь не сохранится; перезагрузите страницу, чтобы получить новую версию."},
};

constexpr Entry indonesian[] = {
    {Str::AppName, "ImQuiz"},
    {Str::Loading, "Memuat…"},
    {Str::LoadingQuiz, "Memuat kuis…"},
    {Str::Catalog, "Kuis"},
    {Str::CatalogEmpty, "Belum ada kuis di quizzes/index.json."},
    {Str::QuestionsCount, "%d pertanyaan"},
    {Str::BestScore, "Terbaik: %d%%"},
    {Str::NotTakenYet, "Belum dikerjakan"},
    {Str::DevelopmentBank, "Bank soal yang sedang dikembangkan, dari %s. Kemajuannya disimpan terpisah dari kuis di katalog, dan tidak ada yang dikirim ke halaman kursus."},
    {Str::DeleteProgress, "Hapus kemajuan"},
    {Str::DeleteAllProgress, "Hapus semua kemajuan"},
    {Str::ConfirmDeleteQuiz, "Hapus kemajuan Anda di “%s”? Percobaan yang selesai, skor terbaik, dan percobaan yang sedang berjalan akan hilang, dan ini tidak bisa dibatalkan."},
    {Str::ConfirmDeleteAll, "Hapus kemajuan Anda di semua kuis di sini? Percobaan yang selesai, skor terbaik, dan percobaan yang sedang berjalan akan hilang, dan ini tidak bisa dibatalkan."},
    {Str::Delete, "Hapus"},
    {Str::Cancel, "Batal"},
    {Str::ProgressDeleted, "Kemajuan dihapus."},
    {Str::ShowMore, "Tampilkan soal lainnya"},
    {Str::CopyCode, "Salin"},
    {Str::ClosePicture, "Tutup"},
    {Str::PictureNotShown, "gambar tidak ditampilkan"},
    {Str::InProgress, "Sedang dikerjakan: %d dari %d terjawab"},
    {Str::NotANumber, "Itu bukan angka. Gunakan digit, dengan titik atau koma untuk desimal."},
    {Str::Start, "Mulai"},
    {Str::Continue, "Lanjutkan"},
    {Str::StartOver, "Mulai ulang"},
    {Str::Settings, "Pengaturan"},
    {Str::Back, "Kembali"},
    {Str::Check, "Periksa"},
    {Str::Next, "Berikutnya"},
    {Str::SeeResults, "Lihat hasil"},
    {Str::Correct, "Benar"},
    {Str::Incorrect, "Salah"},
    {Str::PartlyCorrect, "Sebagian benar"},
    {Str::YourAnswer, "Jawaban Anda"},
    {Str::CorrectAnswer, "Jawaban benar"},
    {Str::Explanation, "Penjelasan"},
    {Str::SelectOne, "Pilih satu jawaban."},
    {Str::SelectAll, "Pilih semua jawaban yang benar."},
    {Str::TrueLabel, "Benar"},
    {Str::FalseLabel, "Salah"},
    {Str::TypeNumber, "Ketik angka"},
    {Str::TypeAnswer, "Ketik jawaban Anda"},
    {Str::QuestionOf, "Pertanyaan %d dari %d"},
    {Str::Results, "Hasil"},
    {Str::Score, "%s dari %s poin"},
    {Str::Passed, "Lulus"},
    {Str::NotPassed, "Belum lulus"},
    {Str::PassMark, "Nilai lulus: %d%%"},
    {Str::TimeTaken, "Waktu"},
    {Str::Retry, "Ulangi"},
    {Str::ReviewMistakes, "Tinjau kesalahan"},
    {Str::BackToCatalog, "Kembali ke daftar kuis"},
    {Str::PastAttempts, "Percobaan sebelumnya"},
    {Str::NoAnswer, "Tidak dijawab"},
    {Str::Theme, "Tema"},
    {Str::ThemeLight, "Terang"},
    {Str::ThemeDark, "Gelap"},
    {Str::ThemeSystem, "Ikuti sistem"},
    {Str::TextSize, "Ukuran teks"},
    {Str::Language, "Bahasa"},
    {Str::Progress, "Kemajuan Anda"},
    {Str::ExportProgress, "Ekspor kemajuan"},
    {Str::ImportProgress, "Impor kemajuan"},
    {Str::ImportSummary, "Diimpor %d kuis: %d percobaan ditambahkan."},
    {Str::ImportFailed, "Berkas ini tidak dapat diimpor:"},
    {Str::StorageUnavailable,
     "Peramban ini tidak mengizinkan ImQuiz menyimpan kemajuan di sini, jadi kemajuan akan hilang saat "
     "halaman ditutup. Gunakan Pengaturan › Ekspor kemajuan untuk menyimpannya."},
    {Str::StorageWriteFailed,
     "Kemajuan terbaru tidak dapat disimpan (penyimpanan peramban penuh atau diblokir). Kuis tetap "
     "berjalan; ekspor kemajuan Anda dari Pengaturan agar tidak hilang."},
    {Str::Dismiss, "OK"},
    {Str::CouldNotLoad, "Kuis ini tidak dapat dimuat"},
    {Str::InvalidBank, "Berkas kuis ini berisi kesalahan"},
    {Str::RetryLoad, "Coba lagi"},
    {Str::ShortcutsHint, "Tombol: 1–9 memilih · Enter periksa / berikutnya · Esc kembali"},
    {Str::Done, "Selesai"},
    {Str::QuizNotFound, "Tidak ada kuis dengan id ini di katalog."},
    {Str::MatchInstruction, "Pasangkan setiap butir dengan jawabannya."},
    {Str::OrderInstruction, "Susun butir-butir dalam urutan yang benar."},
    {Str::ChooseAnswer, "Pilih…"},
    {Str::MoveUp, "Naikkan"},
    {Str::MoveDown, "Turunkan"},
    {Str::PlaceOf, "Urutan %d dari %d"},
    {Str::MovedTo, "sekarang di urutan %d dari %d"},
    {Str::PairedWith, "dipasangkan dengan"},
    {Str::Unpaired, "Belum dipasangkan"},
    {Str::RightAnswerIs, "Jawaban yang benar:"},
    {Str::RightPlaceIs, "Urutan yang benar: %d"},
    {Str::MatchShortcutsHint, "Tombol: panah ke jawaban butir · Spasi membuka daftar dan memilih · Enter periksa / berikutnya · Esc kembali"},
    {Str::OrderShortcutsHint, "Tombol: panah ke Naikkan / Turunkan · Spasi memindahkan · Enter periksa / berikutnya · Esc kembali"},
    {Str::ClozeInstruction, "Isi setiap bagian yang kosong."},
    {Str::BlankOf, "Isian %d dari %d"},
    {Str::BlankNumber, "Isian %d"},
    {Str::ClozeShortcutsHint, "Tombol: Tab ke isian berikutnya · panah ke daftar · Spasi membuka daftar dan memilih · Enter periksa / berikutnya · Esc kembali"},
    {Str::HintOf, "Petunjuk %d dari %d"},
    {Str::ShowHint, "Tampilkan petunjuk"},
    {Str::HintCost, "mengurangi %d%% poin soal ini"},
    {Str::TryOf, "Percobaan %d dari %d"},
    {Str::NotRightYet, "Belum benar"},
    {Str::TriesLeft, "Sisa percobaan: %d. Ubah jawaban Anda lalu periksa lagi."},
    {Str::HintsAndTries, "Petunjuk dipakai: %d · Percobaan: %d"},
    {Str::PointsOfOne, "Poin: %s dari 1"},
    {Str::ExamQuestions, "Soal"},
    {Str::ExamAnswered, "Dijawab: %d dari %d"},
    {Str::PaletteAnswered, "sudah dijawab"},
    {Str::PaletteNotAnswered, "belum dijawab"},
    {Str::PaletteFlagged, "ditandai"},
    {Str::PaletteCurrent, "sedang ditampilkan"},
    {Str::FlagQuestion, "Tandai untuk ditinjau"},
    {Str::UnflagQuestion, "Hapus tanda"},
    {Str::PreviousQuestion, "Sebelumnya"},
    {Str::SubmitAnswers, "Kirim jawaban…"},
    {Str::ConfirmSubmit, "Kirim jawaban Anda? Setelah itu jawaban tidak dapat diubah."},
    {Str::UnansweredList, "Belum dijawab: %s."},
    {Str::AllAnswered, "Semua soal sudah dijawab."},
    {Str::KeepAnswering, "Lanjutkan menjawab"},
    {Str::SubmitNow, "Kirim"},
    {Str::ExamShortcutsHint, "Tombol: 1–9 pilih · Enter soal berikutnya · Esc kembali"},
    {Str::ScoreOnly, "Kuis ini hanya menampilkan skor, tanpa jawaban."},
    {Str::ReloadProblems, "Berkas yang disimpan bermasalah. Sampai diperbaiki, Anda memainkan versi baiknya yang terakhir:"},
    {Str::NewerVersionRecord,
     "Kemajuan Anda pada kuis ini disimpan oleh versi ImQuiz yang lebih baru. Kemajuan itu dibiarkan "
     "utuh, jadi percobaan ini tidak akan disimpan di sini; muat ulang halaman untuk mendapatkan versi baru."},
};

struct Table {
    const Entry* entries;
    size_t count;
};

Table table_for(Language language) {
    switch (language) {
    case Language::Russian: return {russian, sizeof(russian) / sizeof(russian[0])};
    case Language::Indonesian: return {indonesian, sizeof(indonesian) / sizeof(indonesian[0])};
    default: return {english, sizeof(english) / sizeof(english[0])};
    }
}

const char* find(Table table, Str id) {
    // Tables are written in enum order, so the entry is almost always at its own index.
    size_t index = static_cast<size_t>(id);
    if (index < table.count && table.entries[index].id == id) return table.entries[index].text;
    for (size_t i = 0; i < table.count; ++i)
        if (table.entries[i].id == id) return table.entries[i].text;
    return nullptr;
}

}  // namespace

const char* language_code(Language language) {
    switch (language) {
    case Language::Russian: return "ru";
    case Language::Indonesian: return "id";
    default: return "en";
    }
}

const char* language_native_name(Language language) {
    switch (language) {
    case Language::Russian: return "Русский";
    case Language::Indonesian: return "Bahasa Indonesia";
    default: return "English";
    }
}

bool language_from_code(std::string_view code, Language& out) {
    std::string primary;
    for (char c : code) {
        if (c == '-' || c == '_') break;
        primary += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (primary == "ru") { out = Language::Russian; return true; }
    if (primary == "id" || primary == "in") { out = Language::Indonesian; return true; }  // "in": legacy code
    if (primary == "en") { out = Language::English; return true; }
    return false;
}

const char* tr(Language language, Str id) {
    if (const char* text = find(table_for(language), id)) return text;
    if (const char* text = find(table_for(Language::English), id)) return text;
    return "?";
}

}  // namespace imquiz::app

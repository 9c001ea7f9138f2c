// quizc package: a SCORM package (a zip an LMS imports) of one bank of an assembled site.
//
//   quizc package --scorm 1.2|2004 --site SITE_DIR (--quiz ID -o FILE.zip | --all -o DIR)
//
// The zip holds imsmanifest.xml (SCORM 1.2, or 2004 4th edition), the site's app files, a
// catalog that lists this bank alone, the bank file and its images, and scorm.html: the site's
// index.html with the bank's title, the quiz's id and the SCORM version for web/lms.js, which it
// loads before boot.js. The Content-Security-Policy of index.html is kept as it is. Bank text
// (the title) is escaped for XML and HTML: it never becomes markup. docs/lms.md tells the rest.
#include "engine/bank_loader.h"
#include "engine/diagnostics.h"
#include "engine/ids.h"
#include "engine/json/writer.h"
#include "quizc_commands.h"

#include <zip.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

constexpr const char* package_usage =
    "usage: quizc package --scorm 1.2|2004 --site SITE_DIR --quiz ID -o FILE.zip\n"
    "       quizc package --scorm 1.2|2004 --site SITE_DIR --all -o DIR   (DIR/<id>.zip, one per bank)\n"
    "\n"
    "A SCORM package of one bank of an assembled site (scripts/build-web.sh): the app, this bank\n"
    "and its images, a launch page that reports to the LMS (web/lms.js) and imsmanifest.xml.\n"
    "See docs/lms.md.\n";

enum class ScormVersion { V12, V2004 };

// Text for an XML or HTML element or a quoted attribute: nothing in it can end the element or
// the attribute, and control characters XML 1.0 forbids are left out.
std::string escape_markup(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') break;
            out += c;
        }
    }
    return out;
}

// A path inside the site: relative, with no "..", no empty or "." segment and no backslash; a
// bank's image source could otherwise put any file of the disk in the package.
bool safe_relative_path(const std::string& path) {
    if (path.empty() || path.front() == '/' || path.find('\\') != std::string::npos ||
        path.find(':') != std::string::npos)
        return false;
    std::size_t start = 0;
    while (start <= path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        const std::string segment = path.substr(start, end - start);
        if (segment.empty() || segment == "." || segment == "..") return false;
        start = end + 1;
    }
    return true;
}

struct PackageFile {
    std::string name;      // in the zip
    std::string contents;
};

struct Site {
    fs::path dir;
    std::vector<imquiz::CatalogEntry> banks;
};

bool load_site(const std::string& dir, Site& site) {
    site.dir = dir;
    std::string text;
    const std::string catalog_file = (site.dir / "quizzes" / "index.json").string();
    if (!read_file(catalog_file, text)) {
        std::fprintf(stderr, "quizc package: cannot read %s (is --site an assembled site?)\n",
                     terminal(catalog_file).c_str());
        return false;
    }
    const imquiz::CatalogLoadResult loaded = imquiz::load_catalog(text, catalog_file);
    if (!loaded.catalog) {
        for (const imquiz::Diagnostic& diagnostic : loaded.diagnostics)
            std::fprintf(stderr, "%s\n", terminal(imquiz::format_diagnostic_with_severity(diagnostic)).c_str());
        return false;
    }
    site.banks = loaded.catalog->banks;
    return true;
}

// The app's own files: everything at the top of the site and in fonts/, without the banks (the
// package adds its one), the precompressed copies and source maps (an LMS serves files as they
// are) and index.html (scorm.html is the package's page).
std::vector<std::string> app_files(const fs::path& site) {
    std::vector<std::string> names;
    for (const char* folder : {"", "fonts"}) {
        std::error_code error;
        for (const fs::directory_entry& entry : fs::directory_iterator(site / folder, error)) {
            if (!entry.is_regular_file()) continue;
            const std::string name = entry.path().filename().string();
            const std::string ext = entry.path().extension().string();
            if (ext == ".gz" || ext == ".br" || ext == ".map" || name == "index.html" ||
                name == "authoring.json")
                continue;
            names.push_back(std::string(folder).empty() ? name : std::string(folder) + "/" + name);
        }
    }
    std::sort(names.begin(), names.end());
    return names;
}

std::string manifest(ScormVersion version, const std::string& bank_id, const std::string& title,
                     int pass_percent, const std::vector<PackageFile>& files) {
    const std::string id = escape_markup(bank_id);
    const std::string name = escape_markup(title);
    std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    if (version == ScormVersion::V12) {
        xml += "<manifest identifier=\"imquiz-" + id + "\" version=\"1\"\n"
               "  xmlns=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2\"\n"
               "  xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_rootv1p2\"\n"
               "  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
               "  xsi:schemaLocation=\"http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd "
               "http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd "
               "http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd\">\n"
               "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>1.2</schemaversion>\n  </metadata>\n"
               "  <organizations default=\"organization\">\n    <organization identifier=\"organization\">\n"
               "      <title>" + name + "</title>\n"
               "      <item identifier=\"quiz\" identifierref=\"launch\" isvisible=\"true\">\n"
               "        <title>" + name + "</title>\n"
               "        <adlcp:masteryscore>" + std::to_string(pass_percent) + "</adlcp:masteryscore>\n"
               "      </item>\n    </organization>\n  </organizations>\n"
               "  <resources>\n"
               "    <resource identifier=\"launch\" type=\"webcontent\" adlcp:scormtype=\"sco\" href=\"scorm.html\">\n";
    } else {
        char measure[16];
        std::snprintf(measure, sizeof measure, "%.2f", pass_percent / 100.0);
        xml += "<manifest identifier=\"imquiz-" + id + "\" version=\"1\"\n"
               "  xmlns=\"http://www.imsglobal.org/xsd/imscp_v1p1\"\n"
               "  xmlns:adlcp=\"http://www.adlnet.org/xsd/adlcp_v1p3\"\n"
               "  xmlns:imsss=\"http://www.imsglobal.org/xsd/imsss\"\n"
               "  xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"\n"
               "  xsi:schemaLocation=\"http://www.imsglobal.org/xsd/imscp_v1p1 imscp_v1p1.xsd "
               "http://www.adlnet.org/xsd/adlcp_v1p3 adlcp_v1p3.xsd "
               "http://www.imsglobal.org/xsd/imsss imsss_v1p0.xsd\">\n"
               "  <metadata>\n    <schema>ADL SCORM</schema>\n    <schemaversion>2004 4th Edition</schemaversion>\n  </metadata>\n"
               "  <organizations default=\"organization\">\n    <organization identifier=\"organization\">\n"
               "      <title>" + name + "</title>\n"
               "      <item identifier=\"quiz\" identifierref=\"launch\">\n"
               "        <title>" + name + "</title>\n"
               // The bank's pass mark, as the LMS's cmi.scaled_passing_score.
               "        <imsss:sequencing>\n          <imsss:objectives>\n"
               "            <imsss:primaryObjective objectiveID=\"pass\" satisfiedByMeasure=\"true\">\n"
               "              <imsss:minNormalizedMeasure>" + std::string(measure) + "</imsss:minNormalizedMeasure>\n"
               "            </imsss:primaryObjective>\n          </imsss:objectives>\n        </imsss:sequencing>\n"
               "      </item>\n    </organization>\n  </organizations>\n"
               "  <resources>\n"
               "    <resource identifier=\"launch\" type=\"webcontent\" adlcp:scormType=\"sco\" href=\"scorm.html\">\n";
    }
    for (const PackageFile& file : files)
        xml += "      <file href=\"" + escape_markup(file.name) + "\"/>\n";
    xml += "    </resource>\n  </resources>\n</manifest>\n";
    return xml;
}

// index.html with the bank's title, the package's facts for lms.js, and lms.js before boot.js.
bool launch_page(const std::string& index_html, ScormVersion version, const std::string& bank_id,
                 const std::string& title, std::string& page) {
    page = index_html;
    const std::string boot = "<script src=\"boot.js\"></script>";
    const std::string old_title = "<title>ImQuiz</title>";
    const std::size_t boot_at = page.find(boot);
    const std::size_t title_at = page.find(old_title);
    if (boot_at == std::string::npos || title_at == std::string::npos || title_at > boot_at) return false;
    page.replace(boot_at, boot.size(), "<script src=\"lms.js\"></script>\n" + boot);
    page.replace(title_at, old_title.size(),
                 "<title>" + escape_markup(title) + "</title>\n"
                 "<meta name=\"imquiz-scorm\" content=\"" + std::string(version == ScormVersion::V12 ? "1.2" : "2004") + "\">\n"
                 "<meta name=\"imquiz-quiz\" content=\"" + escape_markup(bank_id) + "\">");
    return true;
}

bool add_file(const fs::path& site, const std::string& name, std::vector<PackageFile>& files) {
    PackageFile file{name, {}};
    if (!read_file((site / name).string(), file.contents)) {
        std::fprintf(stderr, "quizc package: cannot read %s\n", terminal((site / name).string()).c_str());
        return false;
    }
    files.push_back(std::move(file));
    return true;
}

bool write_zip(const std::string& path, const std::vector<PackageFile>& files) {
    int error_code = 0;
    zip_t* archive = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &error_code);
    if (!archive) {
        zip_error_t error;
        zip_error_init_with_code(&error, error_code);
        std::fprintf(stderr, "quizc package: cannot write %s: %s\n", terminal(path).c_str(), zip_error_strerror(&error));
        zip_error_fini(&error);
        return false;
    }
    for (const PackageFile& file : files) {
        // The buffers outlive zip_close, which is when libzip reads them.
        zip_source_t* source = zip_source_buffer(archive, file.contents.data(), file.contents.size(), 0);
        const zip_int64_t index = source ? zip_file_add(archive, file.name.c_str(), source, ZIP_FL_ENC_UTF_8) : -1;
        if (index < 0) {
            if (source) zip_source_free(source);
            std::fprintf(stderr, "quizc package: cannot add %s: %s\n", terminal(file.name).c_str(), zip_strerror(archive));
            zip_discard(archive);
            return false;
        }
        // A fixed date: the same site and bank make the same package, byte for byte.
        zip_file_set_mtime(archive, static_cast<zip_uint64_t>(index), 315532800 + 86400, 0);
    }
    if (zip_close(archive) != 0) {
        std::fprintf(stderr, "quizc package: cannot write %s: %s\n", terminal(path).c_str(), zip_strerror(archive));
        zip_discard(archive);
        return false;
    }
    return true;
}

int package_bank(const Site& site, const imquiz::CatalogEntry& entry, ScormVersion version,
                 const std::string& output) {
    const fs::path quizzes = site.dir / "quizzes";
    std::string bank_text;
    const std::string bank_file = (quizzes / entry.file).string();
    if (!safe_relative_path(entry.file) || !read_file(bank_file, bank_text)) {
        std::fprintf(stderr, "quizc package: cannot read the bank %s\n", terminal(bank_file).c_str());
        return 1;
    }
    const imquiz::BankLoadResult loaded = imquiz::load_bank(bank_text, bank_file);
    if (!loaded.bank || imquiz::count_errors(loaded.diagnostics) > 0) {
        for (const imquiz::Diagnostic& diagnostic : loaded.diagnostics)
            std::fprintf(stderr, "%s\n", terminal(imquiz::format_diagnostic_with_severity(diagnostic)).c_str());
        std::fprintf(stderr, "quizc package: %s has errors: no package made\n", terminal(bank_file).c_str());
        return 1;
    }
    const imquiz::Bank& bank = *loaded.bank;
    const std::string title = bank.text(bank.title, bank.default_language);

    std::vector<PackageFile> files;
    for (const std::string& name : app_files(site.dir))
        if (!add_file(site.dir, name, files)) return 1;
    std::string index_html;
    if (!read_file((site.dir / "index.html").string(), index_html)) {
        std::fprintf(stderr, "quizc package: cannot read %s\n", terminal((site.dir / "index.html").string()).c_str());
        return 1;
    }
    PackageFile page{"scorm.html", {}};
    if (!launch_page(index_html, version, bank.id, title, page.contents)) {
        std::fprintf(stderr, "quizc package: %s has no <title>ImQuiz</title> before <script src=\"boot.js\">\n",
                     terminal((site.dir / "index.html").string()).c_str());
        return 1;
    }
    files.push_back(std::move(page));

    imquiz::JsonWriter catalog;
    catalog.begin_object();
    catalog.key("format").string("imquiz-catalog");
    catalog.key("version").integer(1);
    catalog.key("banks").begin_array().begin_object();
    catalog.key("id").string(entry.id).key("file").string(entry.file);
    catalog.end_object().end_array().end_object();
    files.push_back({"quizzes/index.json", catalog.take()});
    files.push_back({"quizzes/" + entry.file, bank_text});

    const std::string bank_folder = fs::path(entry.file).parent_path().generic_string();
    for (const imquiz::ImageReference& image : bank.images) {
        const std::string source = image.source.substr(0, image.source.find_first_of("?#"));
        const std::string name = bank_folder.empty() ? source : bank_folder + "/" + source;
        if (!safe_relative_path(name)) {
            std::fprintf(stderr, "quizc package: the image %s is outside the quizzes folder\n", terminal(image.source).c_str());
            return 1;
        }
        const bool already = std::any_of(files.begin(), files.end(),
                                         [&](const PackageFile& file) { return file.name == "quizzes/" + name; });
        if (!already && !add_file(quizzes, name, files)) return 1;
        if (!already) files.back().name = "quizzes/" + name;
    }

    std::vector<PackageFile> in_zip;
    in_zip.push_back({"imsmanifest.xml", manifest(version, bank.id, title, bank.settings.pass_percent, files)});
    for (PackageFile& file : files) in_zip.push_back(std::move(file));
    if (!write_zip(output, in_zip)) return 1;
    std::size_t bytes = 0;
    for (const PackageFile& file : in_zip) bytes += file.contents.size();
    std::printf("%s: SCORM %s package of %s, %zu files, %zu bytes before compression\n", terminal(output).c_str(),
                version == ScormVersion::V12 ? "1.2" : "2004 4th edition", terminal(bank.id).c_str(), in_zip.size(), bytes);
    return 0;
}

}  // namespace

int run_package_command(int argc, char** argv) {
    std::string scorm, site_dir, quiz, output;
    bool all = false;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        auto value = [&](std::string& into) {
            if (i + 1 >= argc) return false;
            into = argv[++i];
            return true;
        };
        bool ok = true;
        if (argument == "--scorm") ok = value(scorm);
        else if (argument == "--site") ok = value(site_dir);
        else if (argument == "--quiz") ok = value(quiz);
        else if (argument == "-o") ok = value(output);
        else if (argument == "--all") all = true;
        else if (argument == "--help" || argument == "-h") return std::printf("%s", package_usage), 0;
        else ok = false;
        if (!ok)
            return std::fprintf(stderr, "quizc package: unexpected %s\n%s", terminal(argument).c_str(), package_usage), 2;
    }
    if ((scorm != "1.2" && scorm != "2004") || site_dir.empty() || output.empty() || all == !quiz.empty())
        return std::fprintf(stderr, "%s", package_usage), 2;
    const ScormVersion version = scorm == "1.2" ? ScormVersion::V12 : ScormVersion::V2004;
    Site site;
    if (!load_site(site_dir, site)) return 1;
    if (!all) {
        for (const imquiz::CatalogEntry& entry : site.banks)
            if (entry.id == quiz) return package_bank(site, entry, version, output);
        std::fprintf(stderr, "quizc package: the site's catalog lists no quiz \"%s\"\n", terminal(quiz).c_str());
        return 1;
    }
    std::error_code error;
    fs::create_directories(output, error);
    int status = 0;
    for (const imquiz::CatalogEntry& entry : site.banks) {
        if (!imquiz::is_slug(entry.id)) {   // the catalog loader checks ids; a file name needs it too
            std::fprintf(stderr, "quizc package: \"%s\" is not a slug\n", terminal(entry.id).c_str());
            status = 1;
            continue;
        }
        status = std::max(status, package_bank(site, entry, version, (fs::path(output) / (entry.id + ".zip")).string()));
    }
    return status;
}

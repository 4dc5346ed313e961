// The report's match list: every match by its schedule key, folded by round, with links to the
// files of its folder (record.json, replay, transcript, stderr logs) that exist.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <string_view>

#include <nlohmann/json.hpp>

#include "arbiter/report/html_report.hpp"
#include "arbiter/report/html_report_sections.hpp"

namespace arb::report {
namespace {

namespace fs = std::filesystem;

// A path as an href: bytes outside the unreserved set and '/' are percent-encoded, so that a
// '#', '?', '%' or space in a file name still names the file.
std::string percent_encode(const std::string& path) {
    std::string out;
    for (unsigned char c : path) {
        if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            out += static_cast<char>(c);
        else
            out += fmt::format("%{:02X}", c);
    }
    return out;
}

struct FileLink {
    std::string label;
    std::string href;
};

// The files of one match that exist: the match folder is the parent of its transcript.
std::vector<FileLink> match_files(const ReportMatch& m, const fs::path& out_dir) {
    std::vector<FileLink> links;
    auto add = [&](const std::string& label, const std::string& file) {
        if (file.empty()) return;
        for (const auto& l : links)
            if (l.label == label) return;
        if (auto href = link_if_exists(file, out_dir); !href.empty()) links.push_back({label, href});
    };
    const fs::path folder =
        m.transcript_path.empty() ? fs::path() : fs::path(m.transcript_path).parent_path();
    if (!folder.empty()) add("watch", (folder / "viewer.html").string());  // arbiter view, report --viewers
    if (!folder.empty()) add("record", (folder / "record.json").string());
    if (m.replay_path != m.transcript_path) add("replay", m.replay_path);
    add("transcript", m.transcript_path);
    if (folder.empty()) return links;
    // The stderr logs sit in the match folder's logs/; runs older than the per-match folders put
    // transcripts in <out>/transcripts/ and logs in <out>/logs/<transcript stem>/.
    std::error_code ec;
    fs::path log_dir = folder / "logs";
    if (!fs::is_directory(log_dir, ec) && folder.filename() == "transcripts")
        log_dir = folder.parent_path() / "logs" / fs::path(m.transcript_path).stem();
    std::vector<fs::path> logs;
    for (fs::directory_iterator it(log_dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file(ec)) logs.push_back(it->path());
    std::sort(logs.begin(), logs.end());
    for (const auto& log : logs) add(log.filename().string(), log.string());
    return links;
}

std::string ordinal(int n) {
    const int tens = n % 100;
    const char* suffix = (tens >= 11 && tens <= 13) ? "th"
                         : n % 10 == 1              ? "st"
                         : n % 10 == 2              ? "nd"
                         : n % 10 == 3              ? "rd"
                                                    : "th";
    return std::to_string(n) + suffix;
}

bool failed(const ReportSeat& s) { return s.status != "ok"; }

std::string seats_cell(const ReportMatch& m) {
    std::string out;
    for (const auto& s : m.seats) {
        if (!out.empty()) out += "<br>";
        out += fmt::format("{} {} {:g}", escape_html(s.bot), ordinal(s.rank), s.score);
        if (failed(s))
            out += " <span class=\"bad\" title=\"" + escape_html(s.detail) + "\">" + escape_html(s.status) +
                   "</span>";
    }
    return out;
}

// Text order with runs of digits compared as numbers: "t/r2/g10" after "t/r2/g9".
bool natural_less(const std::string& a, const std::string& b) {
    std::size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) &&
            std::isdigit(static_cast<unsigned char>(b[j]))) {
            std::size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            const std::string_view da = std::string_view(a).substr(i, ie - i),
                                   db = std::string_view(b).substr(j, je - j);
            const auto na = da.find_first_not_of('0'), nb = db.find_first_not_of('0');
            const auto ta = na == std::string_view::npos ? std::string_view() : da.substr(na);
            const auto tb = nb == std::string_view::npos ? std::string_view() : db.substr(nb);
            if (ta.size() != tb.size()) return ta.size() < tb.size();
            if (ta != tb) return ta < tb;
            i = ie;
            j = je;
        } else {
            if (a[i] != b[j]) return a[i] < b[j];
            ++i;
            ++j;
        }
    }
    return a.size() - i < b.size() - j;
}

std::string key_of(const ReportMatch& m) {
    return m.schedule_key ? *m.schedule_key : "#" + std::to_string(m.id);
}

// Matches fold by round: the schedule key up to its round ("t/r3" of "t/r3/g1/s2"; a ladder's
// "ladder/g/bot/r3" of "ladder/g/bot/r3/s0"), else without its last part.
std::string fold_of(const ReportMatch& m) {
    if (!m.schedule_key) return "matches without a schedule key";
    const std::string& key = *m.schedule_key;
    std::size_t end = key.size();
    while (end != std::string::npos && end > 0) {
        const std::size_t start = key.rfind('/', end - 1);
        const std::size_t first = start == std::string::npos ? 0 : start + 1;
        const std::string_view part = std::string_view(key).substr(first, end - first);
        if (part.size() > 1 && part[0] == 'r' && std::all_of(part.begin() + 1, part.end(), [](char c) {
                return std::isdigit(static_cast<unsigned char>(c));
            }))
            return key.substr(0, end);
        end = start;
    }
    const std::size_t slash = key.rfind('/');
    return slash == std::string::npos ? key : key.substr(0, slash);
}

// The seats as the page's filter reads them: [[bot, rank, failed], ...].
std::string seats_data(const ReportMatch& m) {
    nlohmann::json seats = nlohmann::json::array();
    for (const auto& s : m.seats) seats.push_back({s.bot, s.rank, failed(s) ? 1 : 0});
    return escape_html(seats.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string match_row(const ReportMatch& m, const fs::path& out_dir) {
    const std::string& map = m.map;  // a pool's map, under the key
    std::string files;
    for (const auto& f : match_files(m, out_dir))
        files += (files.empty() ? "" : " ") +
                 fmt::format("<a href=\"{}\"{}>{}</a>", escape_html(f.href),
                             f.label == "watch" ? " class=\"watch\"" : "", escape_html(f.label));
    return fmt::format(
        "<tr id=\"m{}\" data-seats=\"{}\"><td>{}{}</td><td>{}</td><td>{}</td><td class=\"n\">{}</td><td>{}</td></tr>\n",
        m.id, seats_data(m), escape_html(key_of(m)), map.empty() ? "" : "<br><small>" + escape_html(map) + "</small>",
        seats_cell(m), escape_html(m.end_reason), m.turns, files);
}

// The filter above a match list: by bot, by its opponent and by the bot's result.
std::string filter_form(const std::vector<ReportMatch>& matches, const std::string& list_id) {
    std::vector<std::string> bots;
    for (const auto& m : matches)
        for (const auto& s : m.seats)
            if (std::find(bots.begin(), bots.end(), s.bot) == bots.end()) bots.push_back(s.bot);
    std::sort(bots.begin(), bots.end());
    std::string options = "<option value=\"\">any bot</option>";
    for (const auto& b : bots) options += "<option>" + escape_html(b) + "</option>";
    return fmt::format(
        "<form class=\"filter\" id=\"{0}\" data-list=\"{0}\">Show the matches of <select name=\"bot\">{1}</select> against "
        "<select name=\"vs\">{2}</select> that it <select name=\"result\"><option value=\"\">played</option>"
        "<option value=\"won\">won</option><option value=\"lost\">lost</option><option value=\"drawn\">drew"
        "</option><option value=\"failed\">failed in</option></select> <span class=\"count\"></span></form>\n",
        escape_html(list_id), options, std::regex_replace(options, std::regex("any bot"), "anyone"));
}

std::string fold(const std::string& label, const std::vector<const ReportMatch*>& rows, bool open,
                 const fs::path& out_dir) {
    const auto with_faults = std::count_if(rows.begin(), rows.end(), [](const ReportMatch* m) {
        return std::any_of(m->seats.begin(), m->seats.end(), failed);
    });
    std::string body = fmt::format(
        "<details{}><summary>{} &middot; {} matches{}</summary>\n<table class=\"matches\"><tr><th "
        "class=\"name\">Match"
        "</th><th class=\"name\">Bots: rank, score</th><th class=\"name\">End</th><th>Turns</th>"
        "<th class=\"name\">Files</th></tr>\n",
        open ? " open" : "", escape_html(label), rows.size(),
        with_faults ? fmt::format(", <span class=\"bad\">{} with failed seats</span>", with_faults) : "");
    for (const ReportMatch* m : rows) body += match_row(*m, out_dir);
    return body + "</table></details>\n";
}

}  // namespace

std::string link_if_exists(const std::string& file, const fs::path& out_dir) {
    if (file.empty()) return "";
    std::error_code ec;
    const fs::path absolute = fs::absolute(file, ec).lexically_normal();
    if (ec || !fs::exists(absolute, ec)) return "";
    // Lexical, as a browser resolves "../" in the page's address (and no syscall per link).
    const fs::path relative = absolute.lexically_relative(fs::absolute(out_dir, ec).lexically_normal());
    if (!ec && !relative.empty()) return percent_encode(relative.generic_string());
    return "file://" + percent_encode(absolute.generic_string());
}

std::string match_list_section(const std::vector<ReportMatch>& matches, const MatchListOptions& options) {
    if (matches.empty()) return "";
    // Folds in the order their first match was stored; a long round is cut into several.
    std::vector<std::pair<std::string, std::vector<const ReportMatch*>>> folds;
    for (const auto& m : matches) {
        const std::string label = fold_of(m);
        auto it = std::find_if(folds.rbegin(), folds.rend(), [&](const auto& f) { return f.first == label; });
        if (it == folds.rend()) {
            folds.push_back({label, {}});
            it = folds.rbegin();
        }
        it->second.push_back(&m);
    }
    // Keys in schedule order (results are stored in the order matches finish); keyless last.
    auto by_key = [](const ReportMatch* a, const ReportMatch* b) {
        if (a->schedule_key.has_value() != b->schedule_key.has_value()) return a->schedule_key.has_value();
        if (!a->schedule_key) return a->id < b->id;
        return natural_less(*a->schedule_key, *b->schedule_key);
    };
    for (auto& f : folds) std::stable_sort(f.second.begin(), f.second.end(), by_key);
    std::stable_sort(folds.begin(), folds.end(), [&](const auto& x, const auto& y) {
        return by_key(x.second.front(), y.second.front());
    });
    const bool open = matches.size() <= options.open_up_to;
    std::string body = fmt::format(
        "<h3>Matches</h3>\n<p class=\"note\">{} matches by schedule key, folded by round; "
        "links go to the files each match left that exist (watch: its replay viewer, from <code>arbiter view</code> "
        "or <code>arbiter report --viewers</code>).</p>\n",
        matches.size());
    body += filter_form(matches, options.list_id);
    body += "<div class=\"matchlist\" data-list=\"" + escape_html(options.list_id) + "\">\n";
    const std::size_t per_fold = std::max<std::size_t>(1, options.rows_per_fold);
    for (const auto& [label, rows] : folds) {
        for (std::size_t first = 0; first < rows.size(); first += per_fold) {
            const std::size_t last = std::min(rows.size(), first + per_fold);
            const std::string part = rows.size() > per_fold ? fmt::format("{} (matches {}-{} of {})", label,
                                                                          first + 1, last, rows.size())
                                                            : label;
            body += fold(part, {rows.begin() + first, rows.begin() + last}, open, options.out_dir);
        }
    }
    return body + "</div>\n";
}

std::string filter_href(const std::string& list_id, const std::string& bot, const std::string& vs,
                        const std::string& result) {
    std::string href = "#" + list_id + "?bot=" + percent_encode(bot);
    if (!vs.empty()) href += "&vs=" + percent_encode(vs);
    if (!result.empty()) href += "&result=" + result;
    return escape_html(href);
}

// Filters the rows of a match list by the form above it, and sets the form from a link
// ("#LIST?bot=A&vs=B&result=lost"): folds with a shown row open, the others are hidden.
const char* const kMatchFilterScript = R"JS(
function filterMatches(form) {
  const list = document.querySelector('.matchlist[data-list="' + form.dataset.list + '"]');
  const bot = form.elements.bot.value, vs = form.elements.vs.value, result = form.elements.result.value;
  let shown = 0;
  for (const fold of list.querySelectorAll('details')) {
    let inFold = 0;
    for (const row of fold.querySelectorAll('tr[data-seats]')) {
      const seats = JSON.parse(row.dataset.seats);
      const me = seats.find(s => s[0] === bot), other = seats.find(s => s[0] === vs && s !== me);
      let ok = (!bot || me) && (!vs || other);
      if (ok && result && me) {
        const best = Math.min(...seats.filter(s => s !== me).map(s => s[1]));
        const theirs = other ? other[1] : best;
        ok = result === 'won' ? me[1] < theirs : result === 'lost' ? me[1] > theirs
           : result === 'drawn' ? me[1] === theirs : me[2] === 1;
      } else if (ok && result === 'failed') ok = seats.some(s => s[2] === 1);
      row.style.display = ok ? '' : 'none';
      if (ok) inFold++;
    }
    fold.style.display = inFold ? '' : 'none';
    if (bot || vs || result) fold.open = inFold > 0;
    shown += inFold;
  }
  form.querySelector('.count').textContent = shown + ' match' + (shown === 1 ? '' : 'es');
}
function filterFromHash() {
  const m = /^#([^?]+)\?(.*)$/.exec(location.hash);
  if (!m) return;
  const form = document.querySelector('form.filter[data-list="' + decodeURIComponent(m[1]) + '"]');
  if (!form) return;
  const q = new URLSearchParams(m[2]);
  for (const name of ['bot', 'vs', 'result']) form.elements[name].value = q.get(name) || '';
  filterMatches(form);
  form.scrollIntoView();
}
// The address follows the form (replaced, not pushed), so that Back from a match's viewer and a
// reload show the filter and the list the user left.
function rememberFilter(form) {
  const q = new URLSearchParams();
  for (const name of ['bot', 'vs', 'result']) if (form.elements[name].value) q.set(name, form.elements[name].value);
  history.replaceState(null, '', '#' + encodeURIComponent(form.dataset.list) + '?' + q.toString());
}
for (const form of document.querySelectorAll('form.filter')) {  // nothing filtered yet: no row is read
  form.addEventListener('change', () => { filterMatches(form); rememberFilter(form); });
  const rows = document.querySelectorAll('.matchlist[data-list="' + form.dataset.list + '"] tr[data-seats]').length;
  form.querySelector('.count').textContent = rows + ' match' + (rows === 1 ? '' : 'es');
}
addEventListener('hashchange', filterFromHash);
filterFromHash();
// Back restores the form's controls (from the page cache or by the browser's form restoration,
// after the script ran): the list is filtered again by what the controls now say.
addEventListener('pageshow', () => {
  for (const form of document.querySelectorAll('form.filter'))
    if (['bot', 'vs', 'result'].some(name => form.elements[name].value)) filterMatches(form);
});
)JS";

}  // namespace arb::report

// Runs one program of cases.cpp as a child process with the given environment and collects
// its exit, its stdout (the handles it printed) and the checker's reports from its stderr.
#pragma once

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace check_test {

struct Report {
  std::string category;  // race, host-race, use-after-free, leak, warning
  std::string text;      // every line of the report
};

struct CaseRun {
  int exit_code = -1;  // when the program exited
  int signal = 0;      // when a signal ended it
  std::string out, err;
  std::map<std::string, std::string> handles;  // "s1" -> "0x..."
  std::vector<Report> reports;

  size_t count(const std::string &category) const {
    size_t n = 0;
    for (const Report &r : reports) n += r.category == category;
    return n;
  }
};

inline std::string slurp(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::vector<Report> parse_reports(const std::string &err) {
  static const std::regex head("^openacl-check: (race|host-race|use-after-free|leak|warning): .*");
  std::vector<Report> out;
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    std::smatch m;
    if (std::regex_match(line, m, head)) {
      out.push_back(Report{m[1], line + "\n"});
    } else if (!out.empty() && line.rfind("openacl-check:   ", 0) == 0) {
      out.back().text += line + "\n";
    }
  }
  return out;
}

inline CaseRun run_case(const std::string &name, const std::string &env) {
  static int serial = 0;
  std::string base = ::testing::TempDir() + "check_case_" + std::to_string(::getpid()) + "_" +
                     std::to_string(serial++);
  std::string cmd = "env -u OPENACL_CHECK -u OPENACL_TRACE " + env + " '" CHECK_CASES "' " + name +
                    " >" + base + ".out 2>" + base + ".err";
  int status = std::system(cmd.c_str());
  CaseRun r;
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = slurp(base + ".out");
  r.err = slurp(base + ".err");
  std::istringstream out(r.out);
  std::string line;
  while (std::getline(out, line)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) r.handles[line.substr(0, eq)] = line.substr(eq + 1);
  }
  r.reports = parse_reports(r.err);
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return r;
}

}  // namespace check_test

#include "report/report_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "report/json_report.h"

namespace barracuda::report {

void write_report_file(const std::string& path, std::string_view contents) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) {
    const std::string why = errno == ELOOP ? "it is a symbolic link (not followed)" : std::strerror(errno);
    throw ReportFileError("cannot write " + path + ": " + why);
  }
  size_t written = 0;
  while (written < contents.size()) {
    const ssize_t n = write(fd, contents.data() + written, contents.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = n < 0 ? std::strerror(errno) : "nothing written";
      close(fd);
      throw ReportFileError("cannot write " + path + ": " + why);
    }
    written += static_cast<size_t>(n);
  }
  if (close(fd) != 0) throw ReportFileError("cannot write " + path + ": " + std::strerror(errno));
}

std::string read_report_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ReportFileError("cannot read " + path + ": " + std::strerror(errno));
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) throw ReportFileError("cannot read " + path);
  return contents.str();
}

Report load_json_report_file(const std::string& path) {
  try {
    return parse_json_report(read_report_file(path));
  } catch (const ReportFormatError& error) {
    throw std::runtime_error(path + ": " + error.what());
  }
}

}  // namespace barracuda::report

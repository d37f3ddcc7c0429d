#include "options/options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace barracuda::options {
namespace {

Options parsed(std::string_view text) {
  Options options;
  parse_options(text, options);
  return options;
}

// Matches parse_options(text) throwing OptionsError with exactly `message`.
void expect_error(std::string_view text, const std::string& message) {
  EXPECT_THAT([&] { parsed(text); }, ::testing::ThrowsMessage<OptionsError>(::testing::StrEq(message))) << text;
}

void expect_rejected(std::string_view text) { EXPECT_THROW(parsed(text), OptionsError) << text; }

TEST(Options, DefaultsFollowTheBrief) {
  const Options options;
  EXPECT_EQ(options.error_exitcode, 66);
  EXPECT_EQ(options.print_limit, 100u);
  EXPECT_EQ(options.warp_model, WarpModel::kIndependent);
  EXPECT_EQ(options.block_order, BlockOrder::kNatural);
  EXPECT_EQ(options.queue_bytes, 0u);  // sized from free memory
  EXPECT_TRUE(options.report.empty());
  EXPECT_FALSE(options.quiet);
  EXPECT_FALSE(options.log_read_only);  // read-only loads are not logged unless asked
  EXPECT_EQ(parsed(""), Options{});
}

TEST(Options, ParsesEveryKind) {
  const Options options = parsed(
      "report=out.json:sarif=out.sarif:error_exitcode=3:print_limit=0:kernel_name=^gemm_.*$:"
      "suppressions=s.txt:baseline=old.json:verbose=yes:warp_model=lockstep:queue_bytes=512K:"
      "cache_dir=/tmp/c:record=t.bctrace:log_path=log.txt:help=1");
  EXPECT_EQ(options.report, "out.json");
  EXPECT_EQ(options.sarif, "out.sarif");
  EXPECT_EQ(options.error_exitcode, 3);
  EXPECT_EQ(options.print_limit, 0u);
  EXPECT_EQ(options.kernel_name, "^gemm_.*$");
  EXPECT_EQ(options.suppressions, "s.txt");
  EXPECT_EQ(options.baseline, "old.json");
  EXPECT_TRUE(options.verbose);
  EXPECT_EQ(options.warp_model, WarpModel::kLockstep);
  EXPECT_EQ(options.queue_bytes, 512u * 1024);
  EXPECT_EQ(options.cache_dir, "/tmp/c");
  EXPECT_EQ(options.record, "t.bctrace");
  EXPECT_EQ(options.log_path, "log.txt");
  EXPECT_TRUE(options.help);
}

TEST(Options, LaterEntriesWinAndEmptyEntriesAreSkipped) {
  const Options options = parsed("::print_limit=5::print_limit=7:");
  EXPECT_EQ(options.print_limit, 7u);
}

TEST(Options, ByteSizesTakeBinarySuffixes) {
  EXPECT_EQ(parsed("queue_bytes=4096").queue_bytes, 4096u);
  EXPECT_EQ(parsed("queue_bytes=3M").queue_bytes, 3u << 20);
  EXPECT_EQ(parsed("queue_bytes=2G").queue_bytes, uint64_t{2} << 30);
  EXPECT_EQ(parsed("queue_bytes=0").queue_bytes, 0u);  // automatic
  expect_rejected("queue_bytes=1T");
  expect_rejected("queue_bytes=K");
  expect_rejected("queue_bytes=17179869184G");  // overflows 64 bits
}

TEST(Options, NamesTheKeyInErrors) {
  expect_error("reprot=x.json", "BARRACUDA_OPTIONS: unknown option \"reprot\" (help=1 lists them)");
  expect_error("quiet", "BARRACUDA_OPTIONS: \"quiet\" is not key=value");
  expect_error("error_exitcode=0",
               "BARRACUDA_OPTIONS: bad value \"0\" for error_exitcode: expected an exit code from 1 to 255");
  expect_error("error_exitcode=256",
               "BARRACUDA_OPTIONS: bad value \"256\" for error_exitcode: expected an exit code from 1 to 255");
  expect_error("print_limit=-1",
               "BARRACUDA_OPTIONS: bad value \"-1\" for print_limit: expected a non-negative decimal integer");
  expect_error("print_limit=12x",
               "BARRACUDA_OPTIONS: bad value \"12x\" for print_limit: expected a non-negative decimal integer");
  expect_error("quiet=maybe",
               "BARRACUDA_OPTIONS: bad value \"maybe\" for quiet: expected 0, 1, true, false, yes or no");
  expect_error("warp_model=simt", "BARRACUDA_OPTIONS: bad value \"simt\" for warp_model: expected its or lockstep");
  expect_error("block_order=random",
               "BARRACUDA_OPTIONS: bad value \"random\" for block_order: expected natural, reverse or shuffle");
  expect_error("kernel_name=(unclosed",
               "BARRACUDA_OPTIONS: bad value \"(unclosed\" for kernel_name: expected a valid ECMAScript regular "
               "expression");
  // Numbers libstdc++'s regex compiler would overflow or expand without bound.
  expect_error("kernel_name=a\\33333333333333333333",
               "BARRACUDA_OPTIONS: bad value \"a\\33333333333333333333\" for kernel_name: expected a valid ECMAScript "
               "regular expression");
  expect_error("kernel_name=a{1000000000}",
               "BARRACUDA_OPTIONS: bad value \"a{1000000000}\" for kernel_name: expected a valid ECMAScript regular "
               "expression");
  expect_error("quiet=1:verbose=1", "BARRACUDA_OPTIONS: quiet and verbose exclude each other");
}

TEST(Options, FormatsOnlyNonDefaultsAndRoundTrips) {
  EXPECT_EQ(format_options(Options{}), "");
  Options options;
  options.report = "r.json";
  options.print_limit = 0;
  options.warp_model = WarpModel::kLockstep;
  options.queue_bytes = 3u << 20;
  options.quiet = true;
  options.block_order = BlockOrder::kShuffle;
  options.block_order_seed = 7;
  const std::string text = format_options(options);
  EXPECT_EQ(text,
            "report=r.json:print_limit=0:quiet=1:block_order=shuffle:block_order_seed=7:warp_model=lockstep:"
            "queue_bytes=3M");
  EXPECT_EQ(parsed(text), options);
}

TEST(Options, HelpListsEveryKeyWithItsDefault) {
  const std::string help = options_help();
  for (const char* key : {"report", "sarif", "error_exitcode", "print_limit", "kernel_name", "suppressions", "baseline",
                          "quiet", "verbose", "log_read_only", "warp_model", "queue_bytes", "cache_dir", "record", "log_path", "help"}) {
    EXPECT_NE(help.find(std::string{"\n  "} + key + ' '), std::string::npos) << key;
  }
  EXPECT_NE(help.find("(default: \"66\")"), std::string::npos);
  EXPECT_NE(help.find("(default: \"0\")"), std::string::npos);
  EXPECT_NE(help.find("(default: \"its\")"), std::string::npos);
}

}  // namespace
}  // namespace barracuda::options

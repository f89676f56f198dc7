// Model files: exact round trip, and damaged input of every kind is an error
// with a reason, never a crash or a half-read model.
#include <autosched/core/hash.hpp>
#include <autosched/regions/model_file.hpp>
#include <autosched/regions/region_learner.hpp>

#include <gtest/gtest.h>

#include <random>

using autosched::ModelFile;

namespace {

ModelFile trained_file() {
  autosched::RegionLearner l(autosched::parse_model_spec("rforest,trees=3,depth=2,explore_after=0", "t"), 2, 3, 0);
  for (int i = 0; i < 60; ++i) {
    std::vector<double> x{double(i % 6), double(i % 4)};
    const int e = l.entry(x);
    const auto c = l.choose(e);
    l.observe(e, c.variant, c.variant == (i % 6) % 3 ? 1.0 : 4.0);
  }
  EXPECT_TRUE(l.train());
  ModelFile f;
  f.region = "solver step";
  f.features = {"n", "m:log2"};
  f.variant_count = 3;
  f.variants = "variant{a|b|c}";
  f.model = l.spec().text;
  f.fingerprint = "0123456789abcdef";
  f.build = "autosched 0.1.0, GCC 12";
  for (auto nodes : l.trees()) f.trees.emplace_back(nodes.begin(), nodes.end());
  f.samples = l.samples_text();
  return f;
}

}  // namespace

TEST(ModelFile, RoundTripsEveryField) {
  const ModelFile f = trained_file();
  const std::string text = autosched::write_model_text(f);
  std::string why;
  const auto back = autosched::read_model_text(text, &why);
  ASSERT_TRUE(back) << why;
  EXPECT_EQ(back->region, f.region);
  EXPECT_EQ(back->features, f.features);
  EXPECT_EQ(back->variant_count, 3);
  EXPECT_EQ(back->variants, f.variants);
  EXPECT_EQ(back->model, f.model);
  EXPECT_EQ(back->fingerprint, f.fingerprint);
  EXPECT_EQ(back->build, f.build);
  EXPECT_EQ(back->trees, f.trees);
  EXPECT_EQ(back->samples, f.samples);
  EXPECT_EQ(autosched::write_model_text(*back), text);
}

TEST(ModelFile, EveryTruncationIsRejected) {
  const std::string text = autosched::write_model_text(trained_file());
  for (std::size_t n = 0; n < text.size(); ++n) {
    std::string why;
    EXPECT_FALSE(autosched::read_model_text(std::string_view(text).substr(0, n), &why)) << "accepted " << n << " bytes";
    EXPECT_FALSE(why.empty());
  }
}

TEST(ModelFile, DamagedBytesAreRejectedWithoutCrashing) {
  const std::string text = autosched::write_model_text(trained_file());
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string damaged = text;
    const int flips = 1 + trial % 4;
    for (int i = 0; i < flips; ++i) {
      const auto at = std::uniform_int_distribution<std::size_t>(0, damaged.size() - 1)(rng);
      damaged[at] = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    }
    if (damaged == text) continue;
    std::string why;
    EXPECT_FALSE(autosched::read_model_text(damaged, &why)) << "trial " << trial;
  }
}

// The checksum is a guard against accidents; the reader must also survive
// files that pass it (written by hand or by a buggy tool).
TEST(ModelFile, MalformedButChecksummedFilesAreRejected) {
  auto resign = [](std::string body) {
    // Re-sign a body with the writer's own checksum by round-tripping the
    // pieces we can: find the checksum line and recompute through write.
    const auto at = body.rfind("checksum ");
    return body.substr(0, at);
  };
  const std::string text = autosched::write_model_text(trained_file());
  const std::string body = resign(text);
  // Sign a modified body as the writer does.
  auto sign = [](const std::string& b) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "checksum %016llx\n", static_cast<unsigned long long>(autosched::fnv1a64(b)));
    return b + buf;
  };
  ASSERT_TRUE(autosched::read_model_text(sign(body), nullptr));  // the helper signs as the writer does
  auto replace = [&](std::string from, std::string to) {
    std::string b = body;
    const auto at = b.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    b.replace(at, from.size(), to);
    return sign(b);
  };
  std::string why;
  EXPECT_FALSE(autosched::read_model_text(replace("autosched-region-model 1", "autosched-region-model 2"), &why));
  EXPECT_NE(why.find("version 2"), std::string::npos) << why;
  EXPECT_FALSE(autosched::read_model_text(replace("features 2", "features 3"), &why));
  EXPECT_FALSE(autosched::read_model_text(replace("features 2", "features 999999999"), &why));
  EXPECT_FALSE(autosched::read_model_text(replace("trees 3", "trees 4"), &why));
  EXPECT_FALSE(autosched::read_model_text(replace("trees 3", "trees 100000"), &why));
  EXPECT_FALSE(autosched::read_model_text(replace("variants 3", "variants 0"), &why));
  EXPECT_FALSE(autosched::read_model_text(replace("tree ", "tree 99999"), &why));
  EXPECT_FALSE(autosched::read_model_text(sign("not a model\n"), &why));
}

// A checksummed file can still carry counts no run could reach: near 2^63 they
// overflow the signed counters they are merged into (undefined behaviour),
// beyond 64 bits strtoll saturates. Both are damage, reported with a reason.
TEST(ModelFile, ImplausibleSampleCountsAreRejected) {
  auto learner = [] { return autosched::RegionLearner(autosched::parse_model_spec("auto", "t"), 1, 2, 0); };
  auto samples = [](const std::string& count, const std::string& skipped = "0") {
    return "samples 1 2 2\n0x1p+0 | 0 " + count + " 0x1p+0 0x0p+0 0x1p+0 " + skipped +
           "\n0x1p+1 | 1 3 0x1p+0 0x0p+0 0x1p+0 0\n";
  };
  std::string why;
  {
    auto l = learner();
    ASSERT_TRUE(l.load_samples(samples("5"), &why)) << why;
    ASSERT_TRUE(l.load_samples(samples("5"), &why)) << why;  // merged onto the first
  }
  for (const std::string bad : {"9223372036854775000", "99999999999999999999", "281474976710657"}) {
    auto l = learner();
    ASSERT_TRUE(l.load_samples(samples("5"), &why)) << why;
    why.clear();
    EXPECT_FALSE(l.load_samples(samples(bad), &why)) << bad;
    EXPECT_NE(why.find("count"), std::string::npos) << why;
    EXPECT_FALSE(l.load_samples(samples("5", bad), &why)) << "skipped " << bad;
  }
  // Each count in range, but together beyond the bound.
  auto l = learner();
  EXPECT_FALSE(l.load_samples("samples 1 2 2\n0x1p+0 | 0 281474976710656 0x1p+0 0x0p+0 0x1p+0 0\n"
                              "0x1p+1 | 1 281474976710656 0x1p+0 0x0p+0 0x1p+0 0\n",
                              &why));
}

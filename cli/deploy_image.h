// `fitz deploy image` after the build: stages the root file system of a service (its binary,
// the shared libraries ldd names, CA certificates, tzdata, a non-root user) and writes it as an
// OCI image layout with umoci. cmd_deploy.cpp builds the binary and hands over an ImageSpec.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace fitz::cli::deploy {

// The numeric user and group the service runs as (the distroless "nonroot" convention).
inline constexpr int kServiceUid = 65532;
inline constexpr std::string_view kServiceUser = "fitz";
// Where the binary and the project's static folders live inside the image; also the working
// directory, so relative paths in the program resolve as they do from the project root.
inline constexpr std::string_view kAppDir = "/app";

struct ImageSpec {
  std::filesystem::path binary;  // the built service
  std::string name;              // the binary's name inside the image (/app/NAME)
  std::string version;           // the package version, for the image label (may be empty)
  int64_t port = 0;              // EXPOSEd and passed as PORT
  std::vector<std::filesystem::path> static_dirs;  // copied to /app/<folder name>
  std::filesystem::path layout;  // the OCI layout directory (created when missing)
  std::string tag;
};

// The absolute paths in `ldd` output: every library it resolved plus the dynamic loader.
// A "not found" library is returned in `missing`; vdso lines have no file and are skipped.
std::vector<std::string> parse_ldd(std::string_view ldd_output, std::vector<std::string>& missing);


// Fills `root` (an empty directory) with the image's files. Returns false with `error` set.
bool stage_root_fs(const ImageSpec& spec, const std::filesystem::path& root, std::string& error);

// Creates or replaces `spec.tag` in `spec.layout` from the staged `root` with umoci: one layer,
// entrypoint, user, exposed port and environment. Returns false with `error` set.
bool write_oci_image(const ImageSpec& spec, const std::filesystem::path& root, std::string& error);

// The sum of the (compressed) layer blob sizes of `tag` in an OCI layout; nullopt when the
// layout has no such tag or cannot be read.
std::optional<uint64_t> layer_bytes(const std::filesystem::path& layout, const std::string& tag);

}  // namespace fitz::cli::deploy

// Tests of the backend message decoder: every message type, incremental framing split at every
// byte position, and malformed input (short and overlong lengths, missing NULs, absurd sizes).
#include <gtest/gtest.h>

#include <deque>
#include <random>

#include "pg/messages.h"
#include "pg_test_util.h"

namespace fitz::pg {
namespace {
using namespace fitz::pg::test_support;

// Decoded messages view their body; keep every body alive for the whole test run.
const std::string& keep(std::string body) {
  static std::deque<std::string> bodies;
  bodies.push_back(std::move(body));
  return bodies.back();
}

template <class T>
T decode_as(char tag, std::string body_in) {
  const std::string& body = keep(std::move(body_in));
  auto m = decode_message(tag, body);
  EXPECT_TRUE(m.ok()) << (m.ok() ? "" : m.error().message);
  if (!m.ok()) return T{};
  EXPECT_TRUE(std::holds_alternative<T>(*m)) << message_name(*m);
  if (!std::holds_alternative<T>(*m)) return T{};
  return std::get<T>(*m);
}

Error decode_error(char tag, const std::string& body) {
  auto m = decode_message(tag, body);
  EXPECT_FALSE(m.ok()) << "decoded as " << (m.ok() ? message_name(*m) : "");
  if (m.ok()) return Error{};
  EXPECT_EQ(m.error().kind, ErrorKind::Protocol);
  EXPECT_EQ(m.error().sqlstate, "08P01");
  return m.error();
}

// ---- Every message type -------------------------------------------------------------------

TEST(PgDecode, AuthenticationOkCleartextMd5) {
  decode_as<AuthenticationOk>('R', be32(0));
  decode_as<AuthenticationCleartextPassword>('R', be32(3));
  auto md5 = decode_as<AuthenticationMd5Password>('R', be32(5) + bytes({0xde, 0xad, 0xbe, 0xef}));
  EXPECT_EQ(md5.salt, (std::array<uint8_t, 4>{0xde, 0xad, 0xbe, 0xef}));
}

TEST(PgDecode, AuthenticationSaslFamily) {
  std::string body = be32(10) + cstr("SCRAM-SHA-256-PLUS") + cstr("SCRAM-SHA-256") + bytes({0});
  auto sasl = decode_as<AuthenticationSasl>('R', body);
  ASSERT_EQ(sasl.mechanisms.size(), 2u);
  EXPECT_EQ(sasl.mechanisms[0], "SCRAM-SHA-256-PLUS");
  EXPECT_EQ(sasl.mechanisms[1], "SCRAM-SHA-256");
  std::string cont_body = be32(11) + "r=abc,s=c2FsdA==,i=4096";
  EXPECT_EQ(decode_as<AuthenticationSaslContinue>('R', cont_body).data, "r=abc,s=c2FsdA==,i=4096");
  std::string final_body = be32(12) + "v=xyz";
  EXPECT_EQ(decode_as<AuthenticationSaslFinal>('R', final_body).data, "v=xyz");
}

TEST(PgDecode, AuthenticationUnsupportedMethods) {
  for (int code : {2, 6, 7, 8, 9}) EXPECT_EQ(decode_as<AuthenticationUnsupported>('R', be32(code)).code, code);
}

TEST(PgDecode, ParameterStatusAndBackendKeyData) {
  auto ps = decode_as<ParameterStatus>('S', cstr("server_version") + cstr("15.8"));
  EXPECT_EQ(ps.name, "server_version");
  EXPECT_EQ(ps.value, "15.8");
  auto key = decode_as<BackendKeyData>('K', be32(4242) + be32(0x01020304));
  EXPECT_EQ(key.process_id, 4242);
  EXPECT_EQ(key.secret_key, bytes({1, 2, 3, 4}));
}

TEST(PgDecode, ReadyForQueryStatuses) {
  EXPECT_EQ(decode_as<ReadyForQuery>('Z', "I").status, TransactionStatus::Idle);
  EXPECT_EQ(decode_as<ReadyForQuery>('Z', "T").status, TransactionStatus::InTransaction);
  EXPECT_EQ(decode_as<ReadyForQuery>('Z', "E").status, TransactionStatus::Failed);
}

TEST(PgDecode, RowDescription) {
  std::string body = be16(2) + cstr("id") + be32(16384) + be16(1) + be32(20) + be16(8) + be32(-1) + be16(1) +
                     cstr("name") + be32(16384) + be16(2) + be32(1043) + be16(-1) + be32(68) + be16(0);
  auto rd = decode_as<RowDescription>('T', body);
  ASSERT_EQ(rd.fields.size(), 2u);
  EXPECT_EQ(rd.fields[0].name, "id");
  EXPECT_EQ(rd.fields[0].table_oid, 16384u);
  EXPECT_EQ(rd.fields[0].column_id, 1);
  EXPECT_EQ(rd.fields[0].type_oid, 20u);
  EXPECT_EQ(rd.fields[0].type_size, 8);
  EXPECT_EQ(rd.fields[0].type_modifier, -1);
  EXPECT_EQ(rd.fields[0].format, Format::Binary);
  EXPECT_EQ(rd.fields[1].name, "name");
  EXPECT_EQ(rd.fields[1].type_oid, 1043u);
  EXPECT_EQ(rd.fields[1].type_size, -1);
  EXPECT_EQ(rd.fields[1].type_modifier, 68);
  EXPECT_EQ(rd.fields[1].format, Format::Text);
}

TEST(PgDecode, DataRowNullDistinctFromEmpty) {
  std::string body = be16(4) + be32(3) + "abc" + be32(-1) + be32(0) + be32(2) + std::string("\0x", 2);
  auto row = decode_as<DataRow>('D', body);
  ASSERT_EQ(row.size(), 4u);
  auto values = row.values();
  EXPECT_EQ(values[0], std::optional<std::string_view>("abc"));
  EXPECT_FALSE(values[1].has_value());
  ASSERT_TRUE(values[2].has_value());
  EXPECT_EQ(*values[2], "");
  EXPECT_EQ(values[3], std::optional<std::string_view>(std::string_view("\0x", 2)));
  std::size_t n = 0;
  for (auto v : row) {
    EXPECT_EQ(v, values[n]);
    ++n;
  }
  EXPECT_EQ(n, 4u);
}

TEST(PgDecode, DataRowWithNoColumns) {
  auto row = decode_as<DataRow>('D', be16(0));
  EXPECT_EQ(row.size(), 0u);
  EXPECT_TRUE(row.begin() == row.end());
}

TEST(PgDecode, CommandCompleteTagsAndCounts) {
  struct Case {
    const char* tag;
    std::optional<uint64_t> rows;
  } cases[] = {{"INSERT 0 5", 5},   {"UPDATE 12", 12},      {"DELETE 0", 0},     {"SELECT 3", 3},
               {"MERGE 2", 2},      {"COPY 100", 100},      {"FETCH 1", 1},      {"MOVE 4", 4},
               {"CREATE TABLE", {}}, {"BEGIN", {}},         {"SELECT", {}},      {"INSERT 0 x", {}}};
  for (const auto& c : cases) {
    auto cc = decode_as<CommandComplete>('C', cstr(c.tag));
    EXPECT_EQ(cc.tag, c.tag);
    EXPECT_EQ(cc.rows, c.rows) << c.tag;
  }
}

TEST(PgDecode, EmptyBodiedMessages) {
  decode_as<EmptyQueryResponse>('I', "");
  decode_as<ParseComplete>('1', "");
  decode_as<BindComplete>('2', "");
  decode_as<CloseComplete>('3', "");
  decode_as<NoData>('n', "");
  decode_as<PortalSuspended>('s', "");
  decode_as<CopyDone>('c', "");
}

std::string all_notice_fields() {
  std::string body;
  const char* fields[][2] = {{"S", "ERREUR"},   {"V", "ERROR"},  {"C", "23505"},   {"M", "duplicate key"},
                             {"D", "Key (id)=(1) already exists."}, {"H", "use another id"},
                             {"P", "15"},       {"p", "3"},      {"q", "SELECT 1"}, {"W", "PL/pgSQL function f()"},
                             {"s", "public"},   {"t", "users"},  {"c", "id"},      {"d", "int8"},
                             {"n", "users_pkey"}, {"F", "nbtinsert.c"}, {"L", "664"}, {"R", "_bt_check_unique"},
                             {"Z", "unknown field is ignored"}};
  for (auto& f : fields) body += std::string(f[0]) + cstr(f[1]);
  body.push_back('\0');
  return body;
}

TEST(PgDecode, ErrorResponseAllFields) {
  auto err = decode_as<ErrorResponse>('E', all_notice_fields());
  const NoticeFields& f = err.fields;
  EXPECT_EQ(f.severity, "ERREUR");
  EXPECT_EQ(f.severity_nonlocalized, "ERROR");
  EXPECT_EQ(f.code, "23505");
  EXPECT_EQ(f.message, "duplicate key");
  EXPECT_EQ(f.detail, "Key (id)=(1) already exists.");
  EXPECT_EQ(f.hint, "use another id");
  EXPECT_EQ(f.position, "15");
  EXPECT_EQ(f.internal_position, "3");
  EXPECT_EQ(f.internal_query, "SELECT 1");
  EXPECT_EQ(f.where, "PL/pgSQL function f()");
  EXPECT_EQ(f.schema, "public");
  EXPECT_EQ(f.table, "users");
  EXPECT_EQ(f.column, "id");
  EXPECT_EQ(f.data_type, "int8");
  EXPECT_EQ(f.constraint, "users_pkey");
  EXPECT_EQ(f.file, "nbtinsert.c");
  EXPECT_EQ(f.line, "664");
  EXPECT_EQ(f.routine, "_bt_check_unique");

  Error e = Error::from_server(f);
  EXPECT_EQ(e.kind, ErrorKind::Server);
  EXPECT_EQ(e.sqlstate, "23505");
  EXPECT_EQ(e.summary(), "ERREUR: duplicate key");
  EXPECT_FALSE(e.is_fatal());
}

TEST(PgDecode, NoticeResponse) {
  auto n = decode_as<NoticeResponse>('N', "SNOTICE" + std::string(1, '\0') + "C00000" + std::string(1, '\0') +
                                              "Mhello" + std::string(2, '\0'));
  EXPECT_EQ(n.fields.severity, "NOTICE");
  EXPECT_EQ(n.fields.code, "00000");
  EXPECT_EQ(n.fields.message, "hello");
}

TEST(PgDecode, ParameterDescription) {
  auto pd = decode_as<ParameterDescription>('t', be16(3) + be32(20) + be32(25) + be32(3802));
  EXPECT_EQ(pd.types, (std::vector<Oid>{20, 25, 3802}));
  EXPECT_TRUE(decode_as<ParameterDescription>('t', be16(0)).types.empty());
}

TEST(PgDecode, NotificationResponse) {
  auto n = decode_as<NotificationResponse>('A', be32(77) + cstr("chat") + cstr("{\"m\":1}"));
  EXPECT_EQ(n.process_id, 77);
  EXPECT_EQ(n.channel, "chat");
  EXPECT_EQ(n.payload, "{\"m\":1}");
}

TEST(PgDecode, CopyResponses) {
  auto in = decode_as<CopyInResponse>('G', bytes({0}) + be16(2) + be16(0) + be16(0));
  EXPECT_EQ(in.format, Format::Text);
  EXPECT_EQ(in.column_formats.size(), 2u);
  auto out = decode_as<CopyOutResponse>('H', bytes({1}) + be16(1) + be16(1));
  EXPECT_EQ(out.format, Format::Binary);
  EXPECT_EQ(out.column_formats, std::vector<Format>{Format::Binary});
  decode_as<CopyBothResponse>('W', bytes({0}) + be16(0));
  EXPECT_EQ(decode_as<CopyData>('d', "1\tx\n").data, "1\tx\n");
}

TEST(PgDecode, NegotiateProtocolVersionAndFunctionCall) {
  auto v = decode_as<NegotiateProtocolVersion>('v', be32(0) + be32(1) + cstr("_pq_.x"));
  EXPECT_EQ(v.newest_minor, 0);
  ASSERT_EQ(v.unrecognized_options.size(), 1u);
  EXPECT_EQ(v.unrecognized_options[0], "_pq_.x");
  EXPECT_FALSE(decode_as<FunctionCallResponse>('V', be32(-1)).value.has_value());
  EXPECT_EQ(decode_as<FunctionCallResponse>('V', be32(2) + "ok").value, std::optional<std::string_view>("ok"));
}

TEST(PgDecode, AsyncMessages) {
  EXPECT_TRUE(is_async_message(NoticeResponse{}));
  EXPECT_TRUE(is_async_message(NotificationResponse{}));
  EXPECT_TRUE(is_async_message(ParameterStatus{}));
  EXPECT_FALSE(is_async_message(ReadyForQuery{}));
  EXPECT_FALSE(is_async_message(ErrorResponse{}));
}

// ---- Malformed bodies ---------------------------------------------------------------------

TEST(PgDecode, MalformedBodies) {
  decode_error('R', "");                                      // no auth code
  decode_error('R', bytes({0, 0}));                           // short auth code
  decode_error('R', be32(99));                                // unknown auth code
  decode_error('R', be32(0) + "x");                           // trailing bytes
  decode_error('R', be32(5) + bytes({1, 2, 3}));              // MD5 salt too short
  decode_error('R', be32(5) + bytes({1, 2, 3, 4, 5}));        // MD5 salt too long
  decode_error('R', be32(10) + cstr("SCRAM-SHA-256"));        // mechanism list not terminated
  decode_error('R', be32(10) + "SCRAM");                      // mechanism name without NUL
  decode_error('S', cstr("name") + "value");                  // value without NUL
  decode_error('S', "name");                                  // name without NUL
  decode_error('K', be32(1));                                 // no secret key
  decode_error('K', bytes({0, 0}));                           // short process id
  decode_error('Z', "");                                      // no status
  decode_error('Z', "X");                                     // unknown status
  decode_error('Z', "II");                                    // trailing byte
  decode_error('T', be16(-1));                                // negative field count
  decode_error('T', be16(1) + cstr("id") + be32(0));          // truncated field
  decode_error('T', be16(1) + "id");                          // field name without NUL
  decode_error('T', be16(1) + cstr("id") + be32(0) + be16(0) + be32(23) + be16(4) + be32(-1) + be16(2));  // format 2
  decode_error('T', be16(0) + "x");                           // trailing bytes
  decode_error('D', "");                                      // no count
  decode_error('D', be16(-3));                                // negative count
  decode_error('D', be16(1) + be32(10) + "abc");              // value runs past the message
  decode_error('D', be16(1) + be32(-2));                      // bad negative length
  decode_error('D', be16(2) + be32(1) + "a");                 // fewer values than announced
  decode_error('D', be16(1) + be32(1) + "ab");                // trailing bytes
  decode_error('D', be16(1) + be32(0x7fffffff));              // absurd value length
  decode_error('C', "SELECT 1");                              // tag without NUL
  decode_error('E', "SERROR");                                // field value without NUL
  decode_error('E', "SERROR" + std::string(1, '\0'));         // missing terminator
  decode_error('E', std::string(1, '\0') + "x");              // trailing after terminator
  decode_error('N', "");                                      // empty notice
  decode_error('I', "x");
  decode_error('1', "x");
  decode_error('2', "x");
  decode_error('3', "x");
  decode_error('n', "x");
  decode_error('s', "x");
  decode_error('c', "x");
  decode_error('t', be16(2) + be32(20));                      // fewer OIDs than announced
  decode_error('t', bytes({0}));                              // short count
  decode_error('A', be32(1) + cstr("chan"));                  // payload missing
  decode_error('A', be32(1) + cstr("chan") + "payload");      // payload without NUL
  decode_error('G', bytes({2}) + be16(0));                    // bad overall format
  decode_error('H', bytes({0}) + be16(1));                    // missing column format
  decode_error('W', bytes({0}) + be16(-1));                   // negative column count
  decode_error('v', be32(0) + be32(2) + cstr("a"));           // fewer options than announced
  decode_error('V', be32(4) + "ab");                          // result past the message
  decode_error('V', be32(-5));                                // bad negative length
  Error unknown = decode_error('x', "");
  EXPECT_NE(unknown.message.find("0x78"), std::string::npos) << unknown.message;
}

// Random bodies for every type: decoding must fail cleanly or succeed, never crash (run this under
// the sanitizers to catch out-of-bounds reads).
TEST(PgDecode, RandomBodiesNeverCrash) {
  std::mt19937 rng(12345);
  const std::string tags = "RSKZTDCEIN123nstAGHWdcvVx";
  for (int round = 0; round < 20000; ++round) {
    char tag = tags[rng() % tags.size()];
    std::string body(rng() % 40, '\0');
    for (auto& c : body) c = static_cast<char>(rng() % 4 == 0 ? 0 : rng() % 256);
    if (rng() % 2 && body.size() >= 2) body[0] = 0, body[1] = static_cast<char>(rng() % 4);
    auto m = decode_message(tag, body);
    if (m.ok()) {
      if (auto* row = std::get_if<DataRow>(&*m)) {
        std::size_t total = 0;
        for (auto v : *row)
          if (v) total += v->size();
        EXPECT_LE(total, body.size());
      }
    }
  }
}

// ---- Framing ------------------------------------------------------------------------------

// A short owned description of a message, to compare decodes across different feedings.
std::string summarize(const BackendMessage& m) {
  // Appends piece by piece (GCC 12 misreports `"literal" + std::string` under -O2 -Wrestrict).
  std::string s(message_name(m));
  if (auto* row = std::get_if<DataRow>(&m)) {
    for (auto v : *row) {
      s += '|';
      s += v ? *v : std::string_view("NULL");
    }
  } else if (auto* cc = std::get_if<CommandComplete>(&m)) {
    s += ':';
    s += cc->tag;
  } else if (auto* ps = std::get_if<ParameterStatus>(&m)) {
    s += ':';
    s += ps->name;
    s += '=';
    s += ps->value;
  } else if (auto* e = std::get_if<ErrorResponse>(&m)) {
    s += ':';
    s += e->fields.code;
  }
  return s;
}

std::string sample_stream() {
  std::string stream;
  stream += frame('R', be32(0));
  stream += frame('S', cstr("TimeZone") + cstr("UTC"));
  stream += frame('K', be32(7) + be32(8));
  stream += frame('Z', "I");
  stream += frame('1', "");
  stream += frame('2', "");
  stream += frame('T', be16(1) + cstr("v") + be32(0) + be16(0) + be32(25) + be16(-1) + be32(-1) + be16(0));
  stream += frame('D', be16(1) + be32(5) + "hello");
  stream += frame('D', be16(1) + be32(-1));
  stream += frame('D', be16(1) + be32(0));
  stream += frame('C', cstr("SELECT 3"));
  stream += frame('E', "C42P01" + std::string(1, '\0') + "Mmissing" + std::string(2, '\0'));
  stream += frame('Z', "T");
  return stream;
}

std::vector<std::string> drain(MessageReader& reader) {
  std::vector<std::string> out;
  for (;;) {
    auto m = reader.next();
    EXPECT_TRUE(m.ok());
    if (!m.ok() || !*m) return out;
    out.push_back(summarize(**m));
  }
}

TEST(PgFraming, WholeStream) {
  MessageReader reader;
  reader.append(sample_stream());
  auto all = drain(reader);
  std::vector<std::string> expected = {"AuthenticationOk", "ParameterStatus:TimeZone=UTC", "BackendKeyData",
                                       "ReadyForQuery",    "ParseComplete",  "BindComplete",
                                       "RowDescription",   "DataRow|hello",  "DataRow|NULL",
                                       "DataRow|",         "CommandComplete:SELECT 3",
                                       "ErrorResponse:42P01", "ReadyForQuery"};
  EXPECT_EQ(all, expected);
  EXPECT_EQ(reader.buffered(), 0u);
}

TEST(PgFraming, SplitAtEveryBytePosition) {
  std::string stream = sample_stream();
  MessageReader whole;
  whole.append(stream);
  auto expected = drain(whole);
  for (std::size_t split = 0; split <= stream.size(); ++split) {
    MessageReader reader;
    reader.append(std::string_view(stream).substr(0, split));
    auto got = drain(reader);
    reader.append(std::string_view(stream).substr(split));
    auto rest = drain(reader);
    got.insert(got.end(), rest.begin(), rest.end());
    EXPECT_EQ(got, expected) << "split at " << split;
  }
}

TEST(PgFraming, OneByteAtATimeThroughPrepareCommit) {
  std::string stream = sample_stream();
  MessageReader whole;
  whole.append(stream);
  auto expected = drain(whole);
  MessageReader reader;
  std::vector<std::string> got;
  for (char c : stream) {
    auto space = reader.prepare(1);
    ASSERT_GE(space.size(), 1u);
    space[0] = c;
    reader.commit(1);
    auto part = drain(reader);
    got.insert(got.end(), part.begin(), part.end());
  }
  EXPECT_EQ(got, expected);
}

TEST(PgFraming, IncompleteHeaderAndBodyWait) {
  MessageReader reader;
  reader.append(bytes({'Z', 0, 0}));
  auto m = reader.next_frame();
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->has_value());
  reader.append(bytes({0, 5}));
  m = reader.next_frame();
  ASSERT_TRUE(m.ok());
  EXPECT_FALSE(m->has_value());
  reader.append("I");
  m = reader.next_frame();
  ASSERT_TRUE(m.ok());
  ASSERT_TRUE(m->has_value());
  EXPECT_EQ((*m)->tag, 'Z');
  EXPECT_EQ((*m)->body, "I");
}

TEST(PgFraming, LengthBelowFourIsAProtocolError) {
  for (int len : {0, 1, 3}) {
    MessageReader reader;
    reader.append(bytes({'Z'}) + be32(len) + "I");
    auto m = reader.next_frame();
    ASSERT_FALSE(m.ok()) << len;
    EXPECT_EQ(m.error().kind, ErrorKind::Protocol);
    // The reader stays poisoned: the stream cannot be resynchronised.
    reader.append(frame('Z', "I"));
    EXPECT_FALSE(reader.next_frame().ok());
  }
}

TEST(PgFraming, AbsurdLengthIsRejectedBeforeBuffering) {
  MessageReader reader;
  reader.append(bytes({'D'}) + be32(0x7fffffff));
  auto m = reader.next();
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().sqlstate, "08P01");
  EXPECT_NE(m.error().message.find("1 GiB"), std::string::npos);

  MessageReader just_over;
  just_over.append(bytes({'D'}) + be32((int64_t{1} << 30) + 1));
  EXPECT_FALSE(just_over.next().ok());

  MessageReader at_limit;  // exactly 1 GiB is allowed (and waits for the bytes)
  at_limit.append(bytes({'D'}) + be32(int64_t{1} << 30));
  auto ok = at_limit.next();
  ASSERT_TRUE(ok.ok());
  EXPECT_FALSE(ok->has_value());
}

TEST(PgFraming, MalformedBodySurfacesThroughNext) {
  MessageReader reader;
  reader.append(frame('Z', "Q"));
  auto m = reader.next();
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().kind, ErrorKind::Protocol);
}

TEST(PgFraming, RandomStreamsNeverCrash) {
  std::mt19937 rng(777);
  for (int round = 0; round < 2000; ++round) {
    std::string stream(rng() % 64, '\0');
    for (auto& c : stream) c = static_cast<char>(rng() % 8 == 0 ? 0 : rng() % 256);
    MessageReader reader;
    std::size_t pos = 0;
    while (pos < stream.size()) {
      std::size_t n = 1 + rng() % 8;
      reader.append(std::string_view(stream).substr(pos, n));
      pos += n;
      for (;;) {
        auto m = reader.next();
        if (!m.ok() || !*m) break;
      }
    }
  }
}

}  // namespace
}  // namespace fitz::pg

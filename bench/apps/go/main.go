// The Go peer of `fitz bench`: net/http and pgx v4's pool, encoding/json. Same routes and JSON
// as every implementation in bench/apps. pgx prepares each statement on a connection the first
// time it runs there and reuses it (its statement cache), so every query below is a prepared
// statement without naming one. GOMAXPROCS is left at its default, the number of cores.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"math/rand"
	"net/http"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgconn"
	"github.com/jackc/pgx/v4"
	"github.com/jackc/pgx/v4/pgxpool"
)

const (
	userCols = "id, name, email, created_at"
	postCols = "id, user_id, title, body, created_at"
)

type User struct {
	ID        int64  `json:"id"`
	Name      string `json:"name"`
	Email     string `json:"email"`
	CreatedAt string `json:"created_at"`
}

type Post struct {
	ID        int64  `json:"id"`
	UserID    int64  `json:"user_id"`
	Title     string `json:"title"`
	Body      string `json:"body"`
	CreatedAt string `json:"created_at"`
}

type World struct {
	ID           int32 `json:"id"`
	RandomNumber int32 `json:"randomNumber"`
}

type app struct {
	db *pgxpool.Pool
}

// RFC 3339 in UTC with milliseconds, as every implementation writes timestamps.
func stamp(t time.Time) string {
	return t.UTC().Format("2006-01-02T15:04:05.000Z")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func sqlState(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code
	}
	return ""
}

func scanUser(row interface{ Scan(...any) error }) (User, error) {
	var u User
	var t time.Time
	err := row.Scan(&u.ID, &u.Name, &u.Email, &t)
	u.CreatedAt = stamp(t)
	return u, err
}

func scanPost(row interface{ Scan(...any) error }) (Post, error) {
	var p Post
	var t time.Time
	err := row.Scan(&p.ID, &p.UserID, &p.Title, &p.Body, &t)
	p.CreatedAt = stamp(t)
	return p, err
}

// decodeStrings reads a JSON object whose named fields must all be strings.
func decodeStrings(r *http.Request, names ...string) (map[string]string, bool) {
	var raw map[string]any
	if err := json.NewDecoder(r.Body).Decode(&raw); err != nil {
		return nil, false
	}
	out := make(map[string]string, len(names))
	for _, n := range names {
		s, ok := raw[n].(string)
		if !ok {
			return nil, false
		}
		out[n] = s
	}
	return out, true
}

func (a *app) health(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// users serves /users: the list (GET) and creation (POST).
func (a *app) users(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	switch r.Method {
	case http.MethodGet:
		var limit *int64
		if s := r.URL.Query().Get("limit"); s != "" {
			n, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				writeError(w, http.StatusBadRequest, "limit must be an integer")
				return
			}
			limit = &n
		}
		rows, err := a.db.Query(ctx, "SELECT "+userCols+" FROM users ORDER BY id LIMIT $1", limit)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		defer rows.Close()
		users := []User{}
		for rows.Next() {
			u, err := scanUser(rows)
			if err != nil {
				writeError(w, http.StatusInternalServerError, err.Error())
				return
			}
			users = append(users, u)
		}
		if err := rows.Err(); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, users)
	case http.MethodPost:
		b, ok := decodeStrings(r, "name", "email")
		if !ok {
			writeError(w, http.StatusBadRequest, "expected {name: Str, email: Str}")
			return
		}
		u, err := scanUser(a.db.QueryRow(ctx,
			"INSERT INTO users (name, email) VALUES ($1, $2) RETURNING "+userCols, b["name"], b["email"]))
		if sqlState(err) == "23505" {
			writeError(w, http.StatusConflict, "email already exists")
			return
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusCreated, u)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

// user serves /users/{id} (GET, PUT) and /users/{id}/posts (GET, POST).
func (a *app) user(w http.ResponseWriter, r *http.Request) {
	rest := strings.TrimPrefix(r.URL.Path, "/users/")
	idText, sub, _ := strings.Cut(rest, "/")
	id, err := strconv.ParseInt(idText, 10, 64)
	if err != nil || (sub != "" && sub != "posts") {
		writeError(w, http.StatusNotFound, "not found")
		return
	}
	ctx := r.Context()
	switch {
	case sub == "" && r.Method == http.MethodGet:
		u, err := scanUser(a.db.QueryRow(ctx, "SELECT "+userCols+" FROM users WHERE id = $1", id))
		a.userOr404(w, u, err)
	case sub == "" && r.Method == http.MethodPut:
		b, ok := decodeStrings(r, "name", "email")
		if !ok {
			writeError(w, http.StatusBadRequest, "expected {name: Str, email: Str}")
			return
		}
		u, err := scanUser(a.db.QueryRow(ctx,
			"UPDATE users SET name = $2, email = $3 WHERE id = $1 RETURNING "+userCols, id, b["name"], b["email"]))
		if sqlState(err) == "23505" {
			writeError(w, http.StatusConflict, "email already exists")
			return
		}
		a.userOr404(w, u, err)
	case sub == "posts" && r.Method == http.MethodGet:
		rows, err := a.db.Query(ctx, "SELECT "+postCols+" FROM posts WHERE user_id = $1 ORDER BY id", id)
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		defer rows.Close()
		posts := []Post{}
		for rows.Next() {
			p, err := scanPost(rows)
			if err != nil {
				writeError(w, http.StatusInternalServerError, err.Error())
				return
			}
			posts = append(posts, p)
		}
		if err := rows.Err(); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusOK, posts)
	case sub == "posts" && r.Method == http.MethodPost:
		b, ok := decodeStrings(r, "title", "body")
		if !ok {
			writeError(w, http.StatusBadRequest, "expected {title: Str, body: Str}")
			return
		}
		p, err := scanPost(a.db.QueryRow(ctx,
			"INSERT INTO posts (user_id, title, body) VALUES ($1, $2, $3) RETURNING "+postCols, id, b["title"], b["body"]))
		if sqlState(err) == "23503" {
			writeError(w, http.StatusNotFound, "user not found")
			return
		}
		if err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		writeJSON(w, http.StatusCreated, p)
	default:
		w.WriteHeader(http.StatusMethodNotAllowed)
	}
}

func (a *app) userOr404(w http.ResponseWriter, u User, err error) {
	if errors.Is(err, pgx.ErrNoRows) {
		writeError(w, http.StatusNotFound, "user not found")
		return
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, u)
}

// TechEmpower Framework Benchmarks test types.

func queryCount(r *http.Request) int {
	n, err := strconv.Atoi(r.URL.Query().Get("queries"))
	switch {
	case err != nil || n < 1:
		return 1
	case n > 500:
		return 500
	}
	return n
}

func (a *app) randomWorld(ctx context.Context) (World, error) {
	var w World
	err := a.db.QueryRow(ctx, "SELECT id, randomnumber FROM world WHERE id = $1", rand.Int31n(10000)+1).
		Scan(&w.ID, &w.RandomNumber)
	return w, err
}

func (a *app) tfbJSON(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"message": "Hello, World!"})
}

func (a *app) tfbPlaintext(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain")
	w.Write([]byte("Hello, World!"))
}

func (a *app) tfbDB(w http.ResponseWriter, r *http.Request) {
	world, err := a.randomWorld(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, world)
}

func (a *app) tfbQueries(w http.ResponseWriter, r *http.Request) {
	worlds := make([]World, queryCount(r))
	for i := range worlds {
		var err error
		if worlds[i], err = a.randomWorld(r.Context()); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, worlds)
}

func (a *app) tfbUpdates(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	worlds := make([]World, queryCount(r))
	for i := range worlds {
		var err error
		if worlds[i], err = a.randomWorld(ctx); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		worlds[i].RandomNumber = rand.Int31n(10000) + 1
	}
	for _, wd := range worlds {
		if _, err := a.db.Exec(ctx, "UPDATE world SET randomnumber = $2 WHERE id = $1", wd.ID, wd.RandomNumber); err != nil {
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, worlds)
}

type fortune struct {
	id      int32
	message string
}

// The same entities as the other implementations, so the pages are byte-for-byte equal.
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

func (a *app) tfbFortunes(w http.ResponseWriter, r *http.Request) {
	rows, err := a.db.Query(r.Context(), "SELECT id, message FROM fortune")
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return
	}
	fortunes := []fortune{{0, "Additional fortune added at request time."}}
	for rows.Next() {
		var f fortune
		if err := rows.Scan(&f.id, &f.message); err != nil {
			rows.Close()
			writeError(w, http.StatusInternalServerError, err.Error())
			return
		}
		fortunes = append(fortunes, f)
	}
	rows.Close()
	sort.Slice(fortunes, func(i, j int) bool { return fortunes[i].message < fortunes[j].message })
	var b strings.Builder
	b.WriteString("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>")
	for _, f := range fortunes {
		fmt.Fprintf(&b, "<tr><td>%d</td><td>%s</td></tr>", f.id, htmlEscaper.Replace(f.message))
	}
	b.WriteString("</table></body></html>")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write([]byte(b.String()))
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func main() {
	cfg, err := pgxpool.ParseConfig(env("DATABASE_URL", "postgres://fitz:fitz@127.0.0.1:5432/fitz"))
	if err != nil {
		log.Fatalf("DATABASE_URL: %v", err)
	}
	// Up to ten connections per core, the Fitz runtime's default (FITZ_DB_MAX_CONNS per HTTP thread).
	maxConns := 10 * runtime.GOMAXPROCS(0)
	if s := os.Getenv("POOL_MAX"); s != "" {
		if maxConns, err = strconv.Atoi(s); err != nil || maxConns < 1 {
			log.Fatalf("POOL_MAX must be a positive integer, got %q", s)
		}
	}
	cfg.MaxConns = int32(maxConns)
	pool, err := pgxpool.ConnectConfig(context.Background(), cfg)
	if err != nil {
		log.Fatalf("connecting to the database: %v", err)
	}
	defer pool.Close()

	a := &app{db: pool}
	mux := http.NewServeMux()
	mux.HandleFunc("/health", a.health)
	mux.HandleFunc("/users", a.users)
	mux.HandleFunc("/users/", a.user)
	mux.HandleFunc("/json", a.tfbJSON)
	mux.HandleFunc("/plaintext", a.tfbPlaintext)
	mux.HandleFunc("/db", a.tfbDB)
	mux.HandleFunc("/queries", a.tfbQueries)
	mux.HandleFunc("/fortunes", a.tfbFortunes)
	mux.HandleFunc("/updates", a.tfbUpdates)

	addr := env("HOST", "127.0.0.1") + ":" + env("PORT", "3000")
	log.Fatal(http.ListenAndServe(addr, mux))
}

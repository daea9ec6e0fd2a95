/* Tests of the jit tokenizer (src/jit/lex.c): every token kind, positions as
 * Python's tokenize reports them (byte columns), INDENT/DEDENT, continuation
 * lines, numbers, strings and f-strings (PEP 701 nesting), Unicode names, and
 * the syntax errors with Python's wording, line and column. The tokenizer was
 * also compared with CPython's tokenize module over the standard library
 * while it was written; these cases pin what that comparison showed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "jit/jit.h"

/* Tokens as one line: NAME:x = NUMBER:1 NEWLINE ENDMARKER. */
static char *tokens(const char *src)
{
    static char buf[8192];
    NgJitToken *t;
    int n;
    NgJitError err;
    buf[0] = 0;
    if (ng_jit_lex(src, strlen(src), "t.py", &t, &n, &err) != NG_OK) {
        snprintf(buf, sizeof buf, "ERROR %s", ng_error_message());
        return buf;
    }
    size_t len = 0;
    for (int i = 0; i < n && len < sizeof buf - 200; i++) {
        const char *k = ng_jit_tok_kind_name(t[i].kind);
        if (t[i].kind == NG_JIT_TK_NAME || t[i].kind == NG_JIT_TK_NUMBER || t[i].kind == NG_JIT_TK_STRING)
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s:%.*s", i ? " " : "", k,
                                    (int)t[i].len, src + t[i].off);
        else
            len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", i ? " " : "", k);
    }
    ng_free(t);
    return buf;
}

/* The error a source gives: kind, line, 0-based column and message. */
static void check_error(const char *src, size_t len, const char *kind, int line, int col,
                        const char *msg, int at)
{
    NgJitToken *t = (NgJitToken *)1;
    int n = -1;
    NgJitError err = {0};
    NgStatus st = ng_jit_lex(src, len, "bad.py", &t, &n, &err);
    bool ok = check_eq_int(NG_ERR_VALUE, st, "NG_ERR_VALUE", "status", __FILE__, at);
    ok &= check_true(t == NULL && n == 0, "no tokens on error", __FILE__, at);
    if (st != NG_OK) {
        ok &= check_eq_str(kind, err.kind, "err.kind", __FILE__, at);
        ok &= check_eq_int(line, err.line, "line", "err.line", __FILE__, at);
        ok &= check_eq_int(col, err.col, "col", "err.col", __FILE__, at);
        ok &= check_eq_str(msg, err.msg, "err.msg", __FILE__, at);
        char where[64];
        snprintf(where, sizeof where, "bad.py:%d:%d: %s: ", line, col + 1, kind);
        ok &= check_str_contains(ng_error_message(), where, "ng_error_message()", __FILE__, at);
    } else {
        ng_free(t);
    }
    if (!ok)
        printf("    source: %.60s\n", src);
}

#define CHECK_TOKENS(want, src) CHECK_EQ_STR(want, tokens(src))
#define CHECK_ERROR(src, kind, line, col, msg) check_error(src, strlen(src), kind, line, col, msg, __LINE__)

static void test_basics(void)
{
    CHECK_TOKENS("ENDMARKER", "");
    CHECK_TOKENS("ENDMARKER", "\n\n   \n# only a comment\n");
    CHECK_TOKENS("NAME:x = NUMBER:1 NEWLINE ENDMARKER", "x = 1\n");
    CHECK_TOKENS("NAME:x = NUMBER:1 NEWLINE ENDMARKER", "x = 1"); /* no final newline */
    CHECK_TOKENS("NAME:x = NUMBER:1 NEWLINE ENDMARKER", "x = 1  # comment");
    CHECK_TOKENS("NAME:a ; NAME:b NEWLINE ENDMARKER", "a; b\n");
    CHECK_TOKENS("for NAME:i in NAME:r : pass NEWLINE ENDMARKER", "for i in r: pass\n");
    /* soft keywords are names; keywords are their own kinds */
    CHECK_TOKENS("NAME:match NAME:case NAME:type NAME:_ True False None NEWLINE ENDMARKER",
                 "match case type _ True False None\n");
    CHECK_EQ_INT(NG_JIT_TK_FOR, ng_jit_keyword("for", 3));
    CHECK_EQ_INT(NG_JIT_TK_NAME, ng_jit_keyword("fore", 4));
    CHECK_EQ_INT(NG_JIT_TK_NAME, ng_jit_keyword("match", 5));
}

static void test_operators(void)
{
    CHECK_TOKENS(":= -> **= //= >>= <<= @= ... != == <= >= ** // << >> NEWLINE ENDMARKER",
                 ":= -> **= //= >>= <<= @= ... != == <= >= ** // << >>\n");
    CHECK_TOKENS("+= -= *= /= %= &= |= ^= NEWLINE ENDMARKER", "+= -= *= /= %= &= |= ^=\n");
    CHECK_TOKENS("( ) [ ] { } : , ; + - * / | & < > = . % ~ ^ @ NEWLINE ENDMARKER",
                 "()[]{}:,;+-*/|&< > =.%~^@\n");
    /* longest match: a .. b is "." "." ; a...b is "..." */
    CHECK_TOKENS("NAME:a . . NAME:b NEWLINE ENDMARKER", "a..b\n");
    CHECK_TOKENS("NAME:a ... NAME:b NEWLINE ENDMARKER", "a...b\n");
    CHECK_TOKENS("NAME:x ** = NUMBER:2 NEWLINE ENDMARKER", "x ** = 2\n");
    CHECK_TOKENS("NAME:a - > NAME:b NEWLINE ENDMARKER", "a - > b\n");
}

static void test_positions(void)
{
    const char *src = "def f(a):\n    return a  # c\n\nx = f(\n  2)\n";
    NgJitToken *t;
    int n;
    CHECK_OK(ng_jit_lex(src, strlen(src), "t.py", &t, &n, NULL));
    /* def f ( a ) : NEWLINE INDENT return a NEWLINE DEDENT x = f ( 2 ) NEWLINE EOF */
    CHECK_EQ_INT(20, n);
    CHECK_EQ_INT(NG_JIT_TK_DEF, t[0].kind);
    CHECK_EQ_INT(1, t[0].line);
    CHECK_EQ_INT(0, t[0].col);
    CHECK_EQ_INT(3, t[0].end_col);
    CHECK_EQ_INT(4, t[1].col);
    CHECK_EQ_INT(NG_JIT_TK_NEWLINE, t[6].kind);
    CHECK_EQ_INT(9, t[6].col);
    CHECK_EQ_INT(NG_JIT_TK_INDENT, t[7].kind);
    CHECK_EQ_INT(2, t[7].line);
    CHECK_EQ_INT(0, t[7].col);
    CHECK_EQ_INT(4, t[7].end_col);
    CHECK_EQ_INT(NG_JIT_TK_RETURN, t[8].kind);
    CHECK_EQ_INT(4, t[8].col);
    CHECK_EQ_INT(NG_JIT_TK_NEWLINE, t[10].kind); /* after the comment */
    CHECK_EQ_INT(17, t[10].col);
    CHECK_EQ_INT(NG_JIT_TK_DEDENT, t[11].kind); /* at the first token of line 4 */
    CHECK_EQ_INT(4, t[11].line);
    CHECK_EQ_INT(0, t[11].col);
    CHECK_EQ_INT(0, t[11].len);
    CHECK_EQ_INT(NG_JIT_TK_NUMBER, t[16].kind); /* "2" inside brackets on line 5 */
    CHECK_EQ_INT(5, t[16].line);
    CHECK_EQ_INT(2, t[16].col);
    CHECK_EQ_INT(NG_JIT_TK_EOF, t[19].kind);
    CHECK_EQ_INT(6, t[19].line);
    CHECK_EQ_INT((int)strlen(src), (int)t[19].off);
    ng_free(t);

    /* columns count bytes (Python's col_offset), not characters */
    src = "é = 'ü' + x\n";
    CHECK_OK(ng_jit_lex(src, strlen(src), "t.py", &t, &n, NULL));
    CHECK_EQ_INT(NG_JIT_TK_NAME, t[0].kind);
    CHECK_EQ_INT(2, t[0].end_col);
    CHECK_EQ_INT(3, t[1].col);
    CHECK_EQ_INT(5, t[2].col);
    CHECK_EQ_INT(9, t[2].end_col);
    CHECK_EQ_INT(12, t[4].col);
    ng_free(t);

    /* a multi-line string ends on a later line; the next token knows its line */
    src = "s = '''a\nb \"quoted\" ''x''\n''' + t\n";
    CHECK_OK(ng_jit_lex(src, strlen(src), "t.py", &t, &n, NULL));
    CHECK_EQ_INT(NG_JIT_TK_STRING, t[2].kind);
    CHECK_EQ_INT(1, t[2].line);
    CHECK_EQ_INT(4, t[2].col);
    CHECK_EQ_INT(3, t[2].end_line);
    CHECK_EQ_INT(3, t[2].end_col);
    CHECK_EQ_INT(3, t[4].line);
    CHECK_EQ_INT(6, t[4].col);
    ng_free(t);
}

static void test_numbers(void)
{
    CHECK_TOKENS("NUMBER:0 NUMBER:00 NUMBER:0_0 NUMBER:1_000_000 NUMBER:0xFF_ff NUMBER:0o17 "
                 "NUMBER:0B1_01 NEWLINE ENDMARKER",
                 "0 00 0_0 1_000_000 0xFF_ff 0o17 0B1_01\n");
    CHECK_TOKENS("NUMBER:1. NUMBER:.5 NUMBER:1.5 NUMBER:1e10 NUMBER:1E-5 NUMBER:1_0.0_1e+1_0 "
                 "NUMBER:09.5 NUMBER:0e0 NUMBER:00.1 NEWLINE ENDMARKER",
                 "1. .5 1.5 1e10 1E-5 1_0.0_1e+1_0 09.5 0e0 00.1\n");
    CHECK_TOKENS("NUMBER:3j NUMBER:1.5J NUMBER:09j NUMBER:1e3j NUMBER:.5j NEWLINE ENDMARKER",
                 "3j 1.5J 09j 1e3j .5j\n");
    /* a keyword may follow a number directly, as CPython allows */
    CHECK_TOKENS("NAME:x = NUMBER:1 if NAME:y else NUMBER:2 NEWLINE ENDMARKER", "x = 1if y else 2\n");
    CHECK_TOKENS("NUMBER:0x1f or NAME:z NEWLINE ENDMARKER", "0x1for z\n");
    CHECK_TOKENS("NUMBER:1 . NAME:real NEWLINE ENDMARKER", "1 .real\n");

    CHECK_ERROR("x = 012\n", "SyntaxError", 1, 4,
                "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers");
    CHECK_ERROR("x = 0x\n", "SyntaxError", 1, 6, "invalid hexadecimal literal");
    CHECK_ERROR("x = 0x1g\n", "SyntaxError", 1, 4, "invalid hexadecimal literal");
    CHECK_ERROR("x = 0o8\n", "SyntaxError", 1, 6, "invalid digit '8' in octal literal");
    CHECK_ERROR("x = 0b102\n", "SyntaxError", 1, 8, "invalid digit '2' in binary literal");
    CHECK_ERROR("x = 1_\n", "SyntaxError", 1, 5, "invalid decimal literal");
    CHECK_ERROR("x = 1__0\n", "SyntaxError", 1, 5, "invalid decimal literal");
    CHECK_ERROR("x = 1abc\n", "SyntaxError", 1, 4, "invalid decimal literal");
    CHECK_ERROR("x = 1e\n", "SyntaxError", 1, 4, "invalid decimal literal");
    CHECK_ERROR("x = 1.real\n", "SyntaxError", 1, 4, "invalid decimal literal");
    CHECK_ERROR("x = 2jx\n", "SyntaxError", 1, 4, "invalid imaginary literal");
}

static void test_strings(void)
{
    CHECK_TOKENS("STRING:'a' STRING:\"b\" STRING:'''c''' STRING:\"\"\"d\"\"\" NEWLINE ENDMARKER",
                 "'a' \"b\" '''c''' \"\"\"d\"\"\"\n");
    CHECK_TOKENS("STRING:r'\\d' STRING:b'x' STRING:f'{y}' STRING:u'z' STRING:Rb'1' STRING:bR'2' "
                 "STRING:fr'3' STRING:rF'4' NEWLINE ENDMARKER",
                 "r'\\d' b'x' f'{y}' u'z' Rb'1' bR'2' fr'3' rF'4'\n");
    /* not a prefix: a name, then a string */
    CHECK_TOKENS("NAME:ub STRING:'x' NEWLINE ENDMARKER", "ub'x'\n");
    CHECK_TOKENS("NAME:ur STRING:'x' NEWLINE ENDMARKER", "ur'x'\n");
    /* escapes keep the string open; a raw string still cannot end in an odd backslash */
    CHECK_TOKENS("STRING:'it\\'s' STRING:\"\\\"\" STRING:r'\\'' NEWLINE ENDMARKER",
                 "'it\\'s' \"\\\"\" r'\\''\n");
    CHECK_TOKENS("STRING:'' STRING:\"\" NEWLINE ENDMARKER", "'' \"\"\n");
    /* a backslash-newline continues a one-quote string on the next line */
    CHECK_TOKENS("NAME:s = STRING:'ab\\\ncd' NEWLINE ENDMARKER", "s = 'ab\\\ncd'\n");
    /* triple-quoted strings hold quotes, newlines and lone quote pairs */
    CHECK_TOKENS("STRING:\"\"\"say \"hi\" \"\"twice\"\"\n\"\"\" NEWLINE ENDMARKER",
                 "\"\"\"say \"hi\" \"\"twice\"\"\n\"\"\"\n");
    CHECK_TOKENS("STRING:'''it's''' NEWLINE ENDMARKER", "'''it's'''\n");
    CHECK_TOKENS("STRING:'''a\\''' ''' NEWLINE ENDMARKER", "'''a\\''' '''\n");

    CHECK_ERROR("x = 'abc\n", "SyntaxError", 1, 4, "unterminated string literal (detected at line 1)");
    CHECK_ERROR("x = 1\ny = \"abc", "SyntaxError", 2, 4, "unterminated string literal (detected at line 2)");
    CHECK_ERROR("x = '''abc\n\ny\n", "SyntaxError", 1, 4,
                "unterminated triple-quoted string literal (detected at line 3)");
    CHECK_ERROR("x = b'''abc\n\ny", "SyntaxError", 1, 4,
                "unterminated triple-quoted string literal (detected at line 3)");
    CHECK_ERROR("x = 'a\\\nb\n", "SyntaxError", 1, 4, "unterminated string literal (detected at line 2)");
    CHECK_ERROR("x = f'{a}\n", "SyntaxError", 1, 4, "unterminated f-string literal (detected at line 1)");
}

/* f-strings are one token; PEP 701 lets fields hold any expression,
 * quotes of the enclosing kind and nested f-strings included. */
static void test_fstrings(void)
{
    CHECK_TOKENS("STRING:f\"{x}\" NEWLINE ENDMARKER", "f\"{x}\"\n");
    CHECK_TOKENS("STRING:f\"{d[\"key\"]}\" NEWLINE ENDMARKER", "f\"{d[\"key\"]}\"\n");
    CHECK_TOKENS("STRING:f'{a:{width}.{prec}f}' NEWLINE ENDMARKER", "f'{a:{width}.{prec}f}'\n");
    CHECK_TOKENS("STRING:f\"{x!r:>10}\" NEWLINE ENDMARKER", "f\"{x!r:>10}\"\n");
    CHECK_TOKENS("STRING:f\"{{literal}} {x}\" NEWLINE ENDMARKER", "f\"{{literal}} {x}\"\n");
    CHECK_TOKENS("STRING:f\"{'}'}\" NEWLINE ENDMARKER", "f\"{'}'}\"\n");
    CHECK_TOKENS("STRING:f\"{f\"{f\"{x}\"}\"}\" NEWLINE ENDMARKER", "f\"{f\"{f\"{x}\"}\"}\"\n");
    CHECK_TOKENS("STRING:f\"{x == y}\" STRING:f\"{x != y}\" STRING:f\"{x=}\" NEWLINE ENDMARKER",
                 "f\"{x == y}\" f\"{x != y}\" f\"{x=}\"\n");
    CHECK_TOKENS("STRING:f\"{ {'a': 1}['a'] }\" NEWLINE ENDMARKER", "f\"{ {'a': 1}['a'] }\"\n");
    CHECK_TOKENS("STRING:f\"\\N{BULLET} {x}\" NEWLINE ENDMARKER", "f\"\\N{BULLET} {x}\"\n");
    CHECK_TOKENS("STRING:rf\"\\{x}\" NEWLINE ENDMARKER", "rf\"\\{x}\"\n");
    /* a field may span lines and hold a comment (3.12) */
    CHECK_TOKENS("STRING:f\"{\", \".join([\n  'a',  # one\n  'b'])}\" NEWLINE NAME:y NEWLINE ENDMARKER",
                 "f\"{\", \".join([\n  'a',  # one\n  'b'])}\"\ny\n");
    /* triple-quoted with newlines in the literal and in a format spec field */
    CHECK_TOKENS("STRING:f'''line1\n{x:{w}}\nline3''' NEWLINE ENDMARKER", "f'''line1\n{x:{w}}\nline3'''\n");

    CHECK_ERROR("f'a}b'\n", "SyntaxError", 1, 3, "f-string: single '}' is not allowed");
    CHECK_ERROR("f'{x:abc'\n", "SyntaxError", 1, 8, "f-string: expecting '}'");
    CHECK_ERROR("f'''{x\n", "SyntaxError", 1, 0,
                "unterminated triple-quoted f-string literal (detected at line 1)");
    /* 200 nested f-strings: too many, an error and no crash */
    char deep[2048] = "";
    for (int i = 0; i < 200; i++)
        strcat(deep, "f'{");
    strcat(deep, "x");
    for (int i = 0; i < 200; i++)
        strcat(deep, "}'");
    NgJitToken *t;
    int n;
    NgJitError err;
    CHECK_EQ_INT(NG_ERR_VALUE, ng_jit_lex(deep, strlen(deep), "t.py", &t, &n, &err));
    CHECK_EQ_STR("too many nested f-strings", err.msg);
}

static void test_continuations(void)
{
    /* explicit: no NEWLINE at the backslash, indentation of the next line ignored */
    CHECK_TOKENS("NAME:x = NUMBER:1 + NUMBER:2 NEWLINE ENDMARKER", "x = 1 + \\\n        2\n");
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:x = NUMBER:1 + NUMBER:2 NEWLINE NAME:y NEWLINE DEDENT ENDMARKER",
                 "if a:\n    x = 1 + \\\n2\n    y\n");
    /* implicit: inside brackets newlines, comments and indentation do not count */
    CHECK_TOKENS("NAME:f ( NUMBER:1 , NUMBER:2 , [ NUMBER:3 , NUMBER:4 ] ) NEWLINE NAME:z NEWLINE ENDMARKER",
                 "f(1,  # one\n        2,\n  [3,\n# c\n\n4]\n)\nz\n");
    /* comment lines of any indentation make no INDENT/DEDENT */
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:b NEWLINE NAME:c NEWLINE DEDENT ENDMARKER",
                 "if a:\n        # deep\n    b\n# left\n  # middle\n    c\n");

    CHECK_ERROR("x = 1 \\ 2\n", "SyntaxError", 1, 7, "unexpected character after line continuation character");
    CHECK_ERROR("x = \\", "SyntaxError", 1, 5, "unexpected EOF while parsing");
    CHECK_ERROR("x = \\\n", "SyntaxError", 2, 0, "unexpected EOF while parsing");
}

static void test_indentation(void)
{
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT if NAME:b : NEWLINE INDENT NAME:c NEWLINE DEDENT DEDENT NAME:d NEWLINE ENDMARKER",
                 "if a:\n  if b:\n      c\nd\n");
    /* dedents at the end of input */
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT if NAME:b : NEWLINE INDENT NAME:c NEWLINE DEDENT DEDENT ENDMARKER",
                 "if a:\n  if b:\n      c");
    /* tabs: a tab goes to the next multiple of 8 and must agree with tab = 1 */
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:b NEWLINE NAME:c NEWLINE DEDENT ENDMARKER", "if a:\n\tb\n\tc\n");
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:b NEWLINE if NAME:c : NEWLINE INDENT NAME:d NEWLINE DEDENT DEDENT ENDMARKER",
                 "if a:\n\tb\n\tif c:\n\t\td\n");
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:b NEWLINE NAME:c NEWLINE DEDENT ENDMARKER",
                 "if a:\n  \tb\n  \tc\n");
    CHECK_ERROR("if a:\n  \tb\n \tc\n", "TabError", 3, 0, "inconsistent use of tabs and spaces in indentation");
    /* form feed resets the column */
    CHECK_TOKENS("NAME:a NEWLINE NAME:b NEWLINE ENDMARKER", "a\n\f  \fb\n");

    CHECK_ERROR("if x:\n    a\n  b\n", "IndentationError", 3, 2,
                "unindent does not match any outer indentation level");
    CHECK_ERROR("if x:\n        a\n\tb\n", "TabError", 3, 0, "inconsistent use of tabs and spaces in indentation");
    CHECK_ERROR("if x:\n\ta\n        b\n", "TabError", 3, 0, "inconsistent use of tabs and spaces in indentation");
    char deep[20000] = "";
    size_t len = 0;
    for (int i = 0; i < 101; i++)
        len += (size_t)sprintf(deep + len, "%*sif x:\n", i, "");
    sprintf(deep + len, "%*spass\n", 101, "");
    CHECK_ERROR(deep, "IndentationError", 101, 0, "too many levels of indentation");
    len = 0;
    for (int i = 0; i < 99; i++)
        len += (size_t)sprintf(deep + len, "%*sif x:\n", i, "");
    sprintf(deep + len, "%*spass\n", 99, "");
    CHECK(strstr(tokens(deep), "ERROR") == NULL);
}

static void test_unicode_and_bytes(void)
{
    CHECK_TOKENS("NAME:ñ = NAME:变量 + NAME:π * NAME:ℌ NEWLINE ENDMARKER", "ñ = 变量 + π * ℌ\n");
    CHECK_TOKENS("NAME:x̃ NAME:a·b NAME:_١ NEWLINE ENDMARKER", "x̃ a·b _١\n");
    CHECK_TOKENS("STRING:'€ 😀' NEWLINE ENDMARKER", "'€ 😀'  # ☃\n");
    /* CRLF and lone CR end lines; a BOM is skipped */
    CHECK_TOKENS("if NAME:a : NEWLINE INDENT NAME:b NEWLINE DEDENT NAME:c NEWLINE ENDMARKER", "if a:\r\n  b\r\nc\r\n");
    CHECK_TOKENS("NAME:a NEWLINE NAME:b NEWLINE ENDMARKER", "a\rb\r");
    CHECK_TOKENS("NAME:x NEWLINE ENDMARKER", "\xEF\xBB\xBFx\n");

    CHECK_ERROR("x = €\n", "SyntaxError", 1, 4, "invalid character '€' (U+20AC)");
    CHECK_ERROR("x = a\xC2\xA0" "b\n", "SyntaxError", 1, 5, "invalid non-printable character U+00A0");
    CHECK_ERROR("x = \x01\n", "SyntaxError", 1, 4, "invalid non-printable character U+0001");
    CHECK_ERROR("x = $\n", "SyntaxError", 1, 4, "invalid syntax");
    CHECK_ERROR("a ? b\n", "SyntaxError", 1, 2, "invalid syntax");
    CHECK_ERROR("a ! b\n", "SyntaxError", 1, 2, "invalid syntax");
    check_error("x = 1\0\n", 7, "SyntaxError", 1, 5, "source code cannot contain null bytes", __LINE__);
    CHECK_ERROR("s = '\xff'\n", "SyntaxError", 1, 5,
                "(unicode error) 'utf-8' codec can't decode byte 0xff in position 5: invalid start byte");
    CHECK_ERROR("s = '\xc3" "('\n", "SyntaxError", 1, 5,
                "(unicode error) 'utf-8' codec can't decode byte 0xc3 in position 5: invalid continuation byte");
    CHECK_ERROR("s = '\xe2\x82", "SyntaxError", 1, 5,
                "(unicode error) 'utf-8' codec can't decode byte 0xe2 in position 5: unexpected end of data");
}

static void test_brackets(void)
{
    CHECK_ERROR("x = (1,\n", "SyntaxError", 1, 4, "'(' was never closed");
    CHECK_ERROR("x = [1,\n2\n", "SyntaxError", 1, 4, "'[' was never closed");
    CHECK_ERROR("x = )\n", "SyntaxError", 1, 4, "unmatched ')'");
    CHECK_ERROR("x = (]\n", "SyntaxError", 1, 5, "closing parenthesis ']' does not match opening parenthesis '('");
    CHECK_ERROR("x = (\n]\n", "SyntaxError", 2, 0,
                "closing parenthesis ']' does not match opening parenthesis '(' on line 1");
    char *deep = malloc(30000);
    memset(deep, '(', 10000);
    strcpy(deep + 10000, "x");
    memset(deep + 10001, ')', 10000);
    strcpy(deep + 20001, "\n");
    CHECK_ERROR(deep, "SyntaxError", 1, 200, "too many nested parentheses");
    /* 199 levels are fine */
    memset(deep, '[', 199);
    deep[199] = '1';
    memset(deep + 200, ']', 199);
    deep[399] = 0;
    CHECK(strstr(tokens(deep), "ERROR") == NULL);
    free(deep);
}

/* Every allocation failing in turn: NG_ERR_NOMEM, never a crash or leak. */
static void test_out_of_memory(void)
{
    char src[4096] = "";
    for (int i = 0; i < 100; i++)
        strcat(src, "x = y + 1\n");
    int nomem = 0;
    for (long n = 1; n < 10; n++) {
        ng_alloc_fail_after(n);
        NgJitToken *t;
        int nt;
        NgStatus st = ng_jit_lex(src, strlen(src), "t.py", &t, &nt, NULL);
        ng_alloc_fail_after(0);
        if (st == NG_OK)
            ng_free(t);
        else
            nomem += CHECK_EQ_INT(NG_ERR_NOMEM, st);
    }
    CHECK(nomem >= 2);
}

int main(void)
{
    test_basics();
    test_operators();
    test_positions();
    test_numbers();
    test_strings();
    test_fstrings();
    test_continuations();
    test_indentation();
    test_unicode_and_bytes();
    test_brackets();
    test_out_of_memory();
    return check_summary();
}

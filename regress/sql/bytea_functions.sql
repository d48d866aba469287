-- encode/decode (hex, base64, escape), the SHA-2 digests and overlay, as
-- PostgreSQL's encode.c, cryptohashfuncs.c and text_overlay have them.
SELECT encode('abc'::bytea, 'hex'), encode('abc'::bytea, 'BASE64'), encode('\x00ff5c41'::bytea, 'escape');
SELECT encode(sha256('abc'), 'hex');
SELECT encode(decode(repeat('ab', 60), 'hex'), 'base64');
SELECT decode('YWJj', 'base64'), decode('YW Jj\n', 'base64'), decode('YQ==', 'base64'), decode('YWI=', 'base64'), decode('', 'base64');
SELECT decode('0A 0b', 'hex'), decode('a\\000b\\\\c\\377', 'escape');
SELECT decode('abc', 'hex');
SELECT decode('zz', 'hex');
SELECT decode('YW=j', 'base64');
SELECT decode('YWJ', 'base64');
SELECT decode('Y$', 'base64');
SELECT decode('a\\9', 'escape');
SELECT encode('a'::bytea, 'foo');
SELECT encode(NULL, 'hex'), decode(NULL, 'hex');
SELECT decode('Yé', 'base64');
SELECT overlay('abcdef' placing 'XY' from 2), overlay('abcdef' placing 'XY' from 2 for 3), overlay('abcdef' placing 'X' from 3 for -1), overlay('abc' placing 'XY' from 5), overlay('éèê' placing 'ü' from 2 for 1), overlay('abc' placing '' from 1 for 0);
SELECT overlay('abc' placing 'x' from 0);
SELECT overlay('abc' placing 'x' from 2147483647 for 2);
SELECT sha224(''::bytea), sha256('abc'::bytea), sha384('\x00'::bytea), length(sha512('a'::bytea));
SELECT overlay(NULL placing 'x' from 1), sha256(NULL);

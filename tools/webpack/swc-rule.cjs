/** A webpack rule compiling TypeScript with swc-loader; `jsc` adds to the parser/transform of each app kind. */
function swcRule({ test, parser = {}, transform = {}, target = 'es2020', keepClassNames = false }) {
  return {
    test,
    exclude: /node_modules/,
    use: {
      loader: 'swc-loader',
      options: {
        swcrc: false,
        jsc: { target, parser: { syntax: 'typescript', ...parser }, transform, keepClassNames },
      },
    },
  };
}

module.exports = { swcRule };

const fs = require('node:fs');
const path = require('node:path');

/** A module's path under node_modules, with / between its parts (react-dom/cjs/react-dom.production.js); null outside it. */
function npmModulePath(module) {
  const resource = module.nameForCondition ?? '';
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = resource.lastIndexOf(marker);
  return at < 0
    ? null
    : resource
        .slice(at + marker.length)
        .split(path.sep)
        .join('/');
}

/**
 * The package a module of the build comes from: an npm package by name, a workspace library as @cbh/<lib>;
 * anything else in parentheses: the app's own code, webpack's and federation's generated modules by kind.
 */
function packageOf(module, project) {
  const resource = module.nameForCondition ?? '';
  const npmPath = npmModulePath(module);
  if (npmPath !== null) {
    const parts = npmPath.split('/');
    // the entry the federation plugin generates for the app's runtime plugins
    if (parts[0] === '.federation') return '(federation entry)';
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const lib = /[\\/]libs[\\/]([^\\/]+)[\\/]/.exec(resource);
  if (lib) return `@cbh/${lib[1]}`;
  if (resource) return `(${project} own code)`;
  return `(${module.moduleType ?? module.identifier?.split(' ')[0] ?? 'generated'})`;
}

/** Modules with their sizes, concatenated (scope-hoisted) modules opened up. */
function* leafModules(modules) {
  for (const module of modules ?? []) {
    if (module.modules?.length) yield* leafModules(module.modules);
    else yield module;
  }
}

/**
 * Writes dist/bundle-stats/<project>.json: for each JavaScript file of the build, the packages it holds with
 * their source size in bytes (before minification), and the npm modules in it (paths under node_modules).
 * bench/bundle-budget.mjs tells with it which libraries the files a browser downloads carry, and whether two
 * files carry the same module; it lies outside the app's folder, so the site never serves it.
 */
class BundleStatsPlugin {
  constructor({ project, outputFile }) {
    this.project = project;
    this.outputFile = outputFile;
  }

  apply(compiler) {
    compiler.hooks.done.tap('BundleStatsPlugin', (stats) => {
      const { chunks } = stats.toJson({
        all: false,
        chunks: true,
        chunkModules: true,
        nestedModules: true,
        dependentModules: true,
        runtimeModules: true,
        chunkModulesSpace: Infinity,
        nestedModulesSpace: Infinity,
        groupModulesByType: false,
        groupModulesByPath: false,
        groupModulesByExtension: false,
        groupModulesByAttributes: false,
        groupModulesByCacheStatus: false,
        groupModulesByLayer: false,
      });
      const files = {};
      for (const chunk of chunks) {
        const packages = {};
        const npmModules = [];
        for (const module of leafModules(chunk.modules)) {
          const name = packageOf(module, this.project);
          packages[name] = (packages[name] ?? 0) + (module.size ?? 0);
          const npmPath = npmModulePath(module);
          if (npmPath !== null && !name.startsWith('(')) npmModules.push(npmPath);
        }
        for (const file of chunk.files.filter((f) => f.endsWith('.js'))) files[file] = { packages, npmModules: npmModules.sort() };
      }
      fs.mkdirSync(path.dirname(this.outputFile), { recursive: true });
      fs.writeFileSync(this.outputFile, `${JSON.stringify({ project: this.project, files }, null, 1)}\n`);
    });
  }
}

module.exports = { BundleStatsPlugin };

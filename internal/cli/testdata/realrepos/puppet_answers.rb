# Real Puppet's answers for the whole nodes of a control repository (TestRealRepos' other side).
#
# stdin: {"environmentpath": dir, "environment": name, "hiera_config": file or "",
#         "nodes": [{"name": certname, "facts": {...}, "keys": [more keys to ask]}]}
# stdout (last line): {"nodes": [{"name", "candidates": [keys], "answers": {key: answer}}], "skipped": [why]}
# answer: {"value": v} | {"not_found": true} | {"error": message} | {"sensitive": true, "value": v}
# (a Sensitive value, convert_to Sensitive: v is what it wraps; the test never prints it)
#
# A node's candidates are the String root keys (less lookup_options) of every data file under the data
# directories of the global, environment and module hiera.yaml files, read as Puppet's yaml_data and
# json_data read them, and of the hierarchy's absolute paths, plus the keys given: a key of any file
# the node could reach, found independently of the engine under test. Each is looked up as lookup(key)
# does in one compile of the node (no merge given: lookup_options apply), with exactly the facts given
# (nothing from facter) and no global module path ($basemodulepath is empty), as
# `puppet lookup --environmentpath DIR --environment NAME --node CERTNAME --facts FILE` does without
# the local facts.
require 'json'
require 'tmpdir'
require 'yaml'
require 'puppet'

input = JSON.parse($stdin.read)
scratch = Dir.mktmpdir('realrepos-puppet-')
at_exit { FileUtils.rm_rf(scratch) }
Puppet.initialize_settings(%W[--confdir #{scratch}/conf --vardir #{scratch}/var --codedir #{scratch}/code
                              --logdir #{scratch}/log --rundir #{scratch}/run])
# No global hiera.yaml given: one in an empty directory, so the global layer finds nothing (the
# command has no global layer when --environment is given without --config).
Puppet[:hiera_config] = input['hiera_config'].to_s.empty? ? File.join(scratch, 'hiera.yaml') : input['hiera_config']
Puppet[:environmentpath] = input['environmentpath']

$skipped = []

# The data directories and absolute files a hiera.yaml (version 5) names, relative to its directory.
def data_places(config_file)
  root = File.dirname(config_file)
  return [[File.join(root, 'data')], []] unless File.exist?(config_file)
  config = YAML.safe_load(File.read(config_file), permitted_classes: [Symbol]) || {}
  unless config['version'] == 5
    $skipped << "#{config_file}: not a version 5 hiera.yaml, its data files are not listed"
    return [[], []]
  end
  defaults = config['defaults'] || {}
  dirs, files = [], []
  (config['hierarchy'] || []).each do |level|
    dir = level['datadir'] || defaults['datadir'] || 'data'
    if dir.include?('%{')
      $skipped << "#{config_file}: level #{level['name']}: an interpolated datadir, its files are not listed"
      next
    end
    dirs << File.expand_path(dir, root)
    [level['path'], *level['paths']].compact.each do |path|
      files << path if path.start_with?('/') && !path.include?('%{')
    end
  end
  [dirs.uniq, files.uniq]
end

def root_keys(file)
  text = File.read(file, encoding: 'UTF-8')
  data = if file.end_with?('.json')
           Puppet::Util::Json.load(text)
         else
           Puppet::Util::Yaml.safe_load(text, [Symbol], file)
         end
  return [] unless data.is_a?(Hash)
  data.keys.map { |k| k.is_a?(Symbol) ? k.to_s : k }.select { |k| k.is_a?(String) && k != 'lookup_options' }
rescue StandardError, Puppet::Error => e
  $skipped << "#{file}: not read (#{e.message.lines.first.strip})"
  []
end

def candidate_keys(env)
  configs = [Puppet[:hiera_config], File.join(env.configuration.path_to_env, 'hiera.yaml')]
  configs += env.modules.map { |m| File.join(m.path, 'hiera.yaml') }.select { |f| File.exist?(f) }
  keys = []
  configs.each do |config|
    dirs, files = data_places(config)
    dirs.each { |d| files += Dir.glob(File.join(d, '**', '*.{yaml,yml,json,eyaml}')).sort }
    files.select { |f| File.file?(f) }.each { |f| keys.concat(root_keys(f)) }
  end
  keys.uniq
end

def sensitive?(value)
  case value
  when Puppet::Pops::Types::PSensitiveType::Sensitive then true
  when Hash then value.any? { |k, v| sensitive?(k) || sensitive?(v) }
  when Array then value.any? { |v| sensitive?(v) }
  else false
  end
end

def unwrapped(value)
  case value
  when Puppet::Pops::Types::PSensitiveType::Sensitive then unwrapped(value.unwrap)
  when Hash then value.to_h { |k, v| [unwrapped(k), unwrapped(v)] }
  when Array then value.map { |v| unwrapped(v) }
  else value
  end
end

def data(value)
  Puppet::Pops::Serialization::ToDataConverter.convert(value, rich_data: false, symbol_as_string: true)
end

def answer(scope, key)
  invocation = Puppet::Pops::Lookup::Invocation.new(scope, {}, {}, nil)
  value = Puppet::Pops::Lookup.lookup(key, nil, nil, false, nil, invocation)
  return { 'sensitive' => true, 'value' => data(unwrapped(value)) } if sensitive?(value)
  { 'value' => data(value) }
rescue Puppet::DataBinding::LookupError => e
  e.message.include?('did not find a value for') ? { 'not_found' => true } : { 'error' => e.message }
rescue StandardError, Puppet::Error => e
  { 'error' => "#{e.class}: #{e.message}" }
end

def node_answers(env, candidates, spec)
  node = Puppet::Node.new(spec['name'], environment: env)
  node.fact_merge(Puppet::Node::Facts.new(spec['name'], spec['facts']))
  keys = (candidates + spec['keys'].to_a).uniq
  answers = {}
  trusted = Puppet::Context::TrustedInformation.new('remote', spec['name'], {}, {})
  Puppet.override(trusted_information: trusted) do
    compiler = Puppet::Parser::Compiler.new(node)
    compiler.compile do |catalog|
      keys.each { |k| answers[k] = answer(compiler.topscope, k) }
      catalog
    end
  end
  { 'name' => spec['name'], 'candidates' => keys, 'answers' => answers }
end

loader = Puppet::Environments::Directories.new(input['environmentpath'], [])
nodes = Puppet.override({ environments: loader }, 'the control repository checked') do
  dir_env = loader.get(input['environment']) or
    abort "no environment #{input['environment']} under #{input['environmentpath']}"
  # the same environment (name, directory, module path) without its manifest and its environment.conf
  # config_version: a compile would run that command, and the check runs nothing from the repository
  env = Puppet::Node::Environment.create(dir_env.name, dir_env.full_modulepath, Puppet::Node::Environment::NO_MANIFEST)
  Puppet[:code] = 'undef' # the node's lookups only
  candidates = candidate_keys(env)
  input['nodes'].map { |spec| node_answers(env, candidates, spec) }
end
puts JSON.generate('nodes' => nodes, 'skipped' => $skipped.uniq)

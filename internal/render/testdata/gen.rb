# Regenerates golden.json: each value of values.yaml rendered as `puppet lookup --render-as json|yaml|s`
# renders it (Puppet's renderers are to_json, to_yaml and to_s, printed with puts). Run with the
# Ruby that Puppet uses: ruby gen.rb > golden.json
require 'yaml'
require 'json'
data = YAML.safe_load(File.read(File.join(__dir__, 'values.yaml')))
out = {}
data.each do |k, v|
  r = {}
  { 'json' => ->(x) { x.to_json }, 'yaml' => ->(x) { x.to_yaml }, 's' => ->(x) { x.to_s } }.each do |f, fn|
    s = fn.call(v)
    s += "\n" unless s.end_with?("\n")
    r[f] = s
  end
  out[k] = r
end
puts JSON.pretty_generate(out)

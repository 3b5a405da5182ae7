package provider

// The hiera_data resource (issue 39): Terraform writes some root keys of one YAML data file, every
// other byte of the file kept. This file is the schema and Terraform's calls; data_file.go reads
// and writes the file, data_values.go converts values and finds drift, data_checks.go refuses what
// cannot be written.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ resource.Resource                   = (*dataResource)(nil)
	_ resource.ResourceWithConfigure      = (*dataResource)(nil)
	_ resource.ResourceWithImportState    = (*dataResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*dataResource)(nil)
	_ resource.ResourceWithValidateConfig = (*dataResource)(nil)
)

// NewDataResource returns the hiera_data resource.
func NewDataResource() resource.Resource { return &dataResource{} }

type dataResource struct {
	data *providerData
}

// dataModel is hiera_data's configuration and state.
type dataModel struct {
	ID                    types.String  `tfsdk:"id"`
	Path                  types.String  `tfsdk:"path"`
	Values                types.Dynamic `tfsdk:"values"`
	Interpolate           types.Bool    `tfsdk:"interpolate"`
	SecretValuesWO        types.Map     `tfsdk:"secret_values_wo"`
	SecretValuesWOVersion types.Int64   `tfsdk:"secret_values_wo_version"`
	EyamlPublicKey        types.String  `tfsdk:"eyaml_public_key"`
	SecretKeys            types.List    `tfsdk:"secret_keys"`
	SecretDigests         types.Map     `tfsdk:"secret_digests"`
	Config                types.String  `tfsdk:"config"`
	Environment           types.String  `tfsdk:"environment"`
	Modulepath            types.List    `tfsdk:"modulepath"`
	CheckParams           types.Bool    `tfsdk:"check_params"`
}

func (m *dataModel) layerArgs() layerArgs {
	return layerArgs{Config: m.Config, Environment: m.Environment, Modulepath: m.Modulepath}
}

func (r *dataResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_data"
}

func (r *dataResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = rschema.Schema{
		MarkdownDescription: "Writes some root keys of one YAML data file of a control repository, for Puppet to read: what " +
			"Terraform creates (addresses, endpoints, generated passwords) as Hiera data. Every other byte of the file is kept " +
			"(other keys, comments, blank lines, order, `---`, line endings); a managed key is written where it stands, a new " +
			"one appended. Hiera answers exactly the Terraform value.",
		Attributes: map[string]rschema.Attribute{
			"id": rschema.StringAttribute{
				MarkdownDescription: "The `path`, as given.",
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"path": rschema.StringAttribute{
				MarkdownDescription: "The YAML data file, created when missing. A relative path is taken from Terraform's working " +
					"directory. Changing it to another file replaces the resource (its keys leave the old file); another " +
					"spelling of the same file (`./data/x.yaml`, `data/x.yaml`, absolute) is no change of file.",
				Required:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplaceIf(otherFile,
					"Another file replaces the resource.", "Another file replaces the resource.")},
			},
			"values": rschema.DynamicAttribute{
				MarkdownDescription: "The root keys this resource manages and their values, any Terraform values (an object: " +
					"`{ \"profile::web::workers\" = 8 }`). Written so that `hiera_lookup` and `puppet lookup` give back exactly " +
					"the value: strings YAML would read as something else quoted, numbers exact, `null` as `~`, multi-line " +
					"strings as literal blocks, and `%{` written so that Hiera does not interpolate it (see `interpolate`). " +
					"A key removed from here is removed from the file.",
				Optional: true,
			},
			"interpolate": rschema.BoolAttribute{
				MarkdownDescription: "`true` writes strings as given, for values meant to use Hiera's interpolation " +
					"(`\"%{facts.networking.fqdn}\"`). By default a `%{` in a value is written so that Hiera answers it literally.",
				Optional: true,
			},
			"secret_values_wo": rschema.MapAttribute{
				MarkdownDescription: "Root keys whose values are written encrypted, as `ENC[PKCS7,...]` for the eyaml public key " +
					"(the gem and Puppet decrypt them with the private key, which Terraform never needs). Write-only: never stored " +
					"in the plan or the state (Terraform 1.11 or later), so it takes ephemeral values such as " +
					"`ephemeral.random_password.db.result`. Written when a key is added, when it was changed or removed in the " +
					"file by hand, and when `secret_values_wo_version` changes. A key may not be in `values` too.",
				ElementType: types.StringType,
				Optional:    true,
				Sensitive:   true,
				WriteOnly:   true,
			},
			"secret_values_wo_version": rschema.Int64Attribute{
				MarkdownDescription: "Change it to write every secret of `secret_values_wo` again (Terraform cannot see a " +
					"change in a write-only value).",
				Optional: true,
			},
			"eyaml_public_key": rschema.StringAttribute{
				MarkdownDescription: "The eyaml public key that secrets are encrypted for: the PEM certificate `eyaml createkeys` " +
					"writes (`file(\"keys/public_key.pkcs7.pem\")`). Else the provider's `eyaml` block's public key " +
					"(`public_key_pem` or `public_key_path`, or their environment variables). Changing it alone writes nothing: " +
					"change `secret_values_wo_version` to encrypt the secrets again for the new key.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"secret_keys": rschema.ListAttribute{
				MarkdownDescription: "The keys written encrypted, sorted: those of `secret_values_wo` (after an import, the " +
					"file's eyaml values).",
				ElementType: types.StringType,
				Computed:    true,
			},
			"secret_digests": rschema.MapAttribute{
				MarkdownDescription: "The SHA-256 of each encrypted value as the file holds it (never of the secret), so that a " +
					"secret changed in the file by hand shows in the plan.",
				ElementType: types.StringType,
				Computed:    true,
			},
			"config": rschema.StringAttribute{
				MarkdownDescription: "A `hiera.yaml` (else the provider's): with it, a `path` that no level of its hierarchy " +
					"can read (the level paths with their `%{...}` as wildcards, in every layer) is an error.",
				Optional:   true,
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"environment": rschema.StringAttribute{
				MarkdownDescription: environmentDescription("Replaces the provider's; used by the checks of `config` and `check_params`."),
				Optional:            true,
				Validators:          environmentValidators,
			},
			"modulepath": rschema.ListAttribute{
				MarkdownDescription: modulepathDescription("Replaces the provider's; used by the checks of `config` and `check_params`."),
				ElementType:         types.StringType,
				Optional:            true,
				Validators:          modulepathValidators,
			},
			"check_params": rschema.BoolAttribute{
				MarkdownDescription: "`true` checks each key against the Puppet code of the environment and modulepath, as " +
					"`hieraform check` does: a key near a class parameter is an error with did-you-mean, a value whose type " +
					"does not match the parameter's an error in Puppet's words. At plan when the values are known.",
				Optional: true,
			},
		},
	}
}

func (r *dataResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	r.data, resp.Diagnostics = toProvider(req.ProviderData)
}

// ValidateConfig refuses what is wrong whatever the file holds: a key in both maps, a key no
// lookup can name.
func (r *dataResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m dataModel
	if resp.Diagnostics.Append(req.Config.Get(ctx, &m)...); resp.Diagnostics.HasError() {
		return
	}
	want, diags := desiredOf(ctx, &m, true)
	resp.Diagnostics.Append(diags...)
	if !diags.HasError() {
		resp.Diagnostics.Append(want.checkKeys()...)
	}
}

func (r *dataResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() { // destroy
		return
	}
	var plan, config dataModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var state *dataModel
	if !req.State.Raw.IsNull() {
		state = &dataModel{}
		if resp.Diagnostics.Append(req.State.Get(ctx, state)...); resp.Diagnostics.HasError() {
			return
		}
	}
	plan.ID = plan.Path
	want, diags := desiredOf(ctx, &config, true)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	private, diags := readPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	switch {
	case want.secretsUnknown:
		plan.SecretKeys = types.ListUnknown(types.StringType)
		plan.SecretDigests = types.MapUnknown(types.StringType)
	default:
		plan.SecretKeys = stringListValue(want.secretKeys())
		if state == nil || len(want.secretsToWrite(&plan, state, private)) > 0 {
			plan.SecretDigests = types.MapUnknown(types.StringType)
		} else {
			plan.SecretDigests = keepDigests(state.SecretDigests, want.secretKeys())
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	if r.data == nil || r.data.unknown || plan.Path.IsUnknown() {
		return
	}
	// the checks that read the file and the Puppet code, before anything is written
	var owned []string
	if state != nil {
		owned = state.managedKeys(ctx)
	}
	resp.Diagnostics.Append(r.check(ctx, &plan, want, owned)...)
}

func (r *dataResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan, config dataModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	want, diags := desiredOf(ctx, &config, false)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	if resp.Diagnostics.Append(r.check(ctx, &plan, want, nil)...); resp.Diagnostics.HasError() {
		return
	}
	result, diags := r.write(&plan, writeRequest{want: want, secrets: want.secretKeys(), creating: true})
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	plan.ID = plan.Path
	plan.SecretKeys = stringListValue(want.secretKeys())
	plan.SecretDigests = stringMapValue(result.digests)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(writePrivate(ctx, resp.Private, dataPrivate{Created: result.created, LineBreakAdded: result.lineBreakAdded, Digests: result.digests})...)
}

func (r *dataResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state dataModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	f, err := openDataFile(state.Path.ValueString())
	switch {
	case err == nil && !f.exists: // removed by hand: planned for creation
		resp.State.RemoveResource(ctx)
		return
	case err != nil:
		resp.Diagnostics.AddAttributeError(path.Root("path"), "Cannot Read the Data File", err.Error())
		return
	}
	values, diags := refreshValues(ctx, state.Values, f, state.Interpolate.ValueBool())
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	state.Values = values
	state.ID = state.Path
	state.SecretDigests = stringMapValue(f.digests(stringsOf(ctx, state.SecretKeys)))
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *dataResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, config, state dataModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	want, diags := desiredOf(ctx, &config, false)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	owned := state.managedKeys(ctx)
	if resp.Diagnostics.Append(r.check(ctx, &plan, want, owned)...); resp.Diagnostics.HasError() {
		return
	}
	private, diags := readPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	stale, diags := staleValues(ctx, state.Values, want, state.Interpolate.ValueBool() != want.interpolate)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	result, diags := r.write(&plan, writeRequest{
		want:    want,
		values:  stale,
		secrets: want.secretsToWrite(&plan, &state, private),
		remove:  without(owned, want.keys()),
		owned:   owned,
	})
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	digests := map[string]string{}
	for _, k := range want.secretKeys() {
		if d, ok := result.digests[k]; ok {
			digests[k] = d
		} else if d, ok := private.Digests[k]; ok {
			digests[k] = d
		}
	}
	plan.ID = plan.Path
	plan.SecretKeys = stringListValue(want.secretKeys())
	plan.SecretDigests = stringMapValue(digests)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	resp.Diagnostics.Append(writePrivate(ctx, resp.Private, dataPrivate{Created: private.Created, LineBreakAdded: private.LineBreakAdded || result.lineBreakAdded, Digests: digests})...)
}

func (r *dataResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state dataModel
	if resp.Diagnostics.Append(req.State.Get(ctx, &state)...); resp.Diagnostics.HasError() {
		return
	}
	private, diags := readPrivate(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(removeKeys(state.Path.ValueString(), state.managedKeys(ctx), private)...)
}

// ImportState takes the file's every root key: plain values as values, eyaml values as secret_keys.
func (r *dataResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	f, err := openDataFile(req.ID)
	switch {
	case err != nil:
		resp.Diagnostics.AddError("Cannot Import the Data File", err.Error())
		return
	case !f.exists:
		resp.Diagnostics.AddError("Cannot Import the Data File", fmt.Sprintf("%s does not exist.", req.ID))
		return
	}
	values, secrets, diags := f.imported()
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return
	}
	digests := f.digests(secrets)
	m := dataModel{
		ID: types.StringValue(req.ID), Path: types.StringValue(req.ID), Values: values,
		SecretValuesWO: types.MapNull(types.StringType), SecretKeys: stringListValue(secrets), SecretDigests: stringMapValue(digests),
		Interpolate: types.BoolNull(), SecretValuesWOVersion: types.Int64Null(), EyamlPublicKey: types.StringNull(),
		Config: types.StringNull(), Environment: types.StringNull(), Modulepath: types.ListNull(types.StringType), CheckParams: types.BoolNull(),
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
	resp.Diagnostics.Append(writePrivate(ctx, resp.Private, dataPrivate{Digests: digests})...)
}

// otherFile tells a path that names another file than the state's: a path spelled otherwise
// (an import's id "data/x.yaml" for "./data/x.yaml") is the same file, no replacement.
func otherFile(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !samePath(req.StateValue.ValueString(), req.PlanValue.ValueString())
}

// samePath tells two spellings of one path (relative ones taken from the working directory).
func samePath(a, b string) bool {
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}

// managedKeys are the root keys the state says this resource wrote: its values' and its secrets'.
func (m *dataModel) managedKeys(ctx context.Context) []string {
	keys := stringsOf(ctx, m.SecretKeys)
	keys = append(keys, valueKeys(ctx, m.Values)...)
	sort.Strings(keys)
	return keys
}

// stringsOf is a list of strings' elements (none when null or unknown).
func stringsOf(ctx context.Context, l types.List) []string {
	var out []string
	if l.IsNull() || l.IsUnknown() {
		return nil
	}
	_ = l.ElementsAs(ctx, &out, false)
	return out
}

func stringListValue(s []string) types.List {
	elems := make([]attr.Value, len(s))
	for i, v := range s {
		elems[i] = types.StringValue(v)
	}
	return types.ListValueMust(types.StringType, elems)
}

func stringMapValue(m map[string]string) types.Map {
	elems := make(map[string]attr.Value, len(m))
	for k, v := range m {
		elems[k] = types.StringValue(v)
	}
	return types.MapValueMust(types.StringType, elems)
}

// keepDigests is the state's digests of the keys still secret.
func keepDigests(state types.Map, keys []string) types.Map {
	out := map[string]string{}
	if !state.IsNull() && !state.IsUnknown() {
		for k, v := range state.Elements() {
			if s, ok := v.(types.String); ok && slices.Contains(keys, k) {
				out[k] = s.ValueString()
			}
		}
	}
	return stringMapValue(out)
}

// without is keys less those in drop.
func without(keys, drop []string) []string {
	var out []string
	for _, k := range keys {
		if !slices.Contains(drop, k) {
			out = append(out, k)
		}
	}
	return out
}

// dataPrivate is what the resource keeps in its private state: whether it created the file (so
// destroy removes it when nothing else is left), and the digest of each secret as written (the
// state's digests are the file's, refreshed).
type dataPrivate struct {
	Created bool `json:"created,omitempty"`
	// LineBreakAdded: the file's last line had no line break until the resource wrote (destroy
	// takes it away, so that the file is as it was).
	LineBreakAdded bool              `json:"line_break_added,omitempty"`
	Digests        map[string]string `json:"digests,omitempty"`
}

const privateKey = "hiera_data"

// privateState is the part of the framework's private state the resource reads and writes.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func readPrivate(ctx context.Context, p privateState) (dataPrivate, diag.Diagnostics) {
	var d dataPrivate
	if p == nil {
		return d, nil
	}
	b, diags := p.GetKey(ctx, privateKey)
	if len(b) > 0 {
		if err := json.Unmarshal(b, &d); err != nil {
			diags.AddError("Invalid Private State", "hiera_data's private state does not parse: "+err.Error())
		}
	}
	return d, diags
}

func writePrivate(ctx context.Context, p privateState, d dataPrivate) diag.Diagnostics {
	if p == nil {
		return nil
	}
	b, err := json.Marshal(d)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Invalid Private State", err.Error())
		return diags
	}
	return p.SetKey(ctx, privateKey, b)
}

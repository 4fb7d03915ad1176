import { useState } from 'preact/hooks';
import { get, post } from '../api/client';
import { useApp } from '../session';
import { ActionButton, ActionForm, ErrorNote, Loading, RoleNote, Screen } from '../components';
import { useAction, useLoad } from '../hooks';
import { PeoplePermissions } from './roles-people';

async function loadAccess() {
  const [roles, grants, skills] = await Promise.all([get('roles/list'), get('grants/list', {}), get('skills/list')]);
  return { roles: roles.roles, grants: grants.grants, skills: skills.skills };
}

export default function RolesAndAccess() {
  const app = useApp();
  const access = useLoad(loadAccess, []);
  const [granted, setGranted] = useState<Set<string> | null>(null);
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [pending, setPending] = useState<string | null>(null);
  const current = granted ?? new Set(access.data?.grants.map((grant) => `${grant.role} ${grant.capability}`));
  const toggle = useAction(async (role: string, capability: string) => {
    const key = `${role} ${capability}`;
    setPending(key);
    try {
      const on = current.has(key);
      if (on) await post('grants/revoke', { role, capability });
      else await post('grants/create', { role, capability });
      const next = new Set(current);
      if (on) next.delete(key);
      else next.add(key);
      setGranted(next);
    } finally {
      setPending(null);
    }
  });
  const create = useAction(async () => {
    await post('roles/create', { name: name.trim(), description: description.trim() });
    setName('');
    setDescription('');
    setGranted(null);
    access.reload();
  });
  const roles = access.data?.roles ?? [];
  return (
    <Screen
      title="Roles & Access"
      trail="Company"
      intro="Which tools an agent may use when it acts for a role. Nothing is allowed until it is granted: a click grants or revokes at once."
    >
      <RoleNote permission="manage" action="granting, revoking or creating roles" />
      {access.loading && !access.data ? <Loading what="roles and capabilities" /> : null}
      <ErrorNote error={access.error ?? toggle.error} />
      <p class="legend" aria-hidden="true">
        <span class="cell-demo allow">✓ Allowed</span> <span class="cell-demo deny">✕ Denied (default)</span>
      </p>
      {access.data ? (
        <div class="table-wrap">
          <table class="grid">
            <caption class="sr-only">Capabilities (rows) by role (columns)</caption>
            <thead>
              <tr>
                <th scope="col">Capability</th>
                {roles.map((role) => (
                  <th scope="col" key={role.name} title={role.description}>
                    {role.name}
                  </th>
                ))}
              </tr>
            </thead>
            {access.data.skills.map((skill) => (
              <tbody key={skill.code}>
                <tr class="group">
                  <th scope="rowgroup" colSpan={roles.length + 1}>
                    {skill.name}
                  </th>
                </tr>
                {skill.tools.map((tool) => (
                  <tr key={tool.capability}>
                    <th scope="row">
                      <span class="mono">{tool.capability}</span>
                      <span class="muted small block">{tool.description}</span>
                    </th>
                    {roles.map((role) => {
                      const key = `${role.name} ${tool.capability}`;
                      const on = current.has(key);
                      return (
                        <td key={role.name}>
                          <button
                            type="button"
                            class={`cell ${on ? 'allow' : 'deny'}`}
                            aria-pressed={on}
                            aria-label={`${tool.capability} for ${role.name}: ${on ? 'allowed' : 'denied'}`}
                            data-role={role.name}
                            data-capability={tool.capability}
                            disabled={!app.may('manage') || pending === key}
                            aria-describedby={app.may('manage') ? undefined : 'role-note-manage'}
                            onClick={() => void toggle.run(role.name, tool.capability)}
                          >
                            {on ? '✓' : '✕'}
                          </button>
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            ))}
          </table>
        </div>
      ) : null}
      <PeoplePermissions />
      <ActionForm class="panel" onSubmit={create.run}>
        <h2>Create a role</h2>
        <label for="role-name">Role name (lowercase, e.g. support)</label>
        <input id="role-name" required pattern="[a-z][a-z0-9_\-]{1,39}" value={name} onInput={(event) => setName(event.currentTarget.value)} />
        <label for="role-description">Description</label>
        <input id="role-description" maxLength={200} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />
        <ActionButton type="submit" permission="manage" variant="primary" busy={create.busy}>
          Create role
        </ActionButton>
        <ErrorNote error={create.error} />
      </ActionForm>
    </Screen>
  );
}

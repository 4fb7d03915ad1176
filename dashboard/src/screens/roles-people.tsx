import { MEMBER_ROLES_BUILTIN, PERMISSIONS, roleMay, type Permission } from '../permissions';

const PERMISSION_TEXT: Record<Permission, string> = {
  read: 'See agents, runs, settings and knowledge; search the knowledge',
  command: 'Give agents commands',
  manage: 'Manage API keys, webhooks, agents, skills and these grants',
  members: 'Invite people and change their roles',
  'knowledge:manage': 'Manage knowledge: add, sync and delete sources, files and answers; dismiss unanswered questions',
  'conversations:reply': 'Answer visitors: claim a conversation, reply, write notes, hand it back to the agent, close it',
  'visitors:manage': "Visitors' data: export and erase a visitor's data, set how long conversations are kept, read the erasure audit",
  audit: "Read the workspace's audit log: who changed what, and who read visitors' data",
};

/** What each person's role may do in the dashboard and the API (fixed per role; a company role acts as member here). */
export function PeoplePermissions() {
  return (
    <section class="panel" aria-labelledby="people-permissions-title">
      <h2 id="people-permissions-title">What people's roles may do</h2>
      <p class="muted small">A role your company creates acts as member here; an API key acts as admin.</p>
      <div class="table-wrap">
        <table>
          <caption class="sr-only">Permissions (rows) by people's role (columns)</caption>
          <thead>
            <tr>
              <th scope="col">Permission</th>
              {MEMBER_ROLES_BUILTIN.map((role) => (
                <th scope="col" key={role}>
                  {role}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {PERMISSIONS.map((permission) => (
              <tr key={permission} data-permission={permission}>
                <th scope="row">{PERMISSION_TEXT[permission]}</th>
                {MEMBER_ROLES_BUILTIN.map((role) => (
                  <td key={role} data-role={role}>
                    {roleMay(role, permission) ? 'Yes' : 'No'}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

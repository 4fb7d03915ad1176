// The roles' permission rule, imported by its own entry so nothing else of the shared package reaches the bundle.
export { MEMBER_ROLES_BUILTIN, PERMISSIONS, roleMay, type Permission } from '@service/shared/role-permissions';
